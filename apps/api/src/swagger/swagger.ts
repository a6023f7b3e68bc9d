import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { adapterOpenApiDocument } from '../governance/adapter-listener/adapter-openapi.js';
import { VERSION } from '../version.js';

/** The main API's OpenAPI document, from the controllers' decorators. */
export function mainOpenApiDocument(app: NestFastifyApplication): OpenAPIObject {
  return SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Helios API')
      .setDescription('Runs tool-using agents over HTTP/SSE, serves governance decisions and the admin API.')
      .setVersion(VERSION)
      // The runtime API's authenticators (auth: in helios.yaml); one of them applies per deployment.
      .addBearerAuth(
        { type: 'http', scheme: 'bearer', description: 'A static API token or a JWT.' },
        'bearer',
      )
      .addSecurity('trustedProxy', {
        type: 'apiKey',
        in: 'header',
        name: 'X-Authenticated-Subject',
        description:
          'Behind an authenticating proxy: X-Authenticated-Tenant and X-Authenticated-Subject, trusted only from the configured proxy addresses.',
      })
      .build(),
  );
}

/**
 * Swagger UI and JSON/YAML for the main API at `/docs`, and for the governance adapter API (served by
 * its own listener, documented here so one place shows both) at `/docs/adapter`.
 */
export function setUpSwagger(app: NestFastifyApplication): void {
  SwaggerModule.setup('docs', app, () => mainOpenApiDocument(app), {
    jsonDocumentUrl: 'docs-json',
    yamlDocumentUrl: 'docs-yaml',
  });
  SwaggerModule.setup('docs/adapter', app, adapterOpenApiDocument() as unknown as OpenAPIObject, {
    jsonDocumentUrl: 'docs/adapter-json',
    yamlDocumentUrl: 'docs/adapter-yaml',
  });
}
