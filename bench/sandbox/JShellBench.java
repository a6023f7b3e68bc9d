// The JShell anchor for bench/sandbox: JShell with the "local" execution engine (one JVM, the shape of
// the original JvmSandbox child). Prints READY after the first `1+1`, then one JSON line of warm
// timings, then waits for a line on stdin so the runner can read this process's RSS.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.Arrays;
import jdk.jshell.JShell;
import jdk.jshell.Snippet;
import jdk.jshell.SnippetEvent;

public class JShellBench {
  static void eval(JShell shell, String code) {
    for (SnippetEvent event : shell.eval(code)) {
      if (event.status() == Snippet.Status.REJECTED || event.exception() != null) {
        throw new IllegalStateException("snippet failed: " + code);
      }
    }
  }

  static double medianMs(JShell shell, String code, int rounds) {
    double[] samples = new double[rounds];
    for (int i = 0; i < rounds; i++) {
      long start = System.nanoTime();
      eval(shell, code);
      samples[i] = (System.nanoTime() - start) / 1e6;
    }
    Arrays.sort(samples);
    return samples[rounds / 2];
  }

  public static void main(String[] args) throws Exception {
    JShell shell = JShell.builder().executionEngine("local").build();
    eval(shell, "1+1");
    System.out.println("READY");
    System.out.flush();
    double warm = medianMs(shell, "1+1", 100);
    double loop = medianMs(shell, "{ long s = 0; for (int i = 0; i < 1000000; i++) s += i; }", 5);
    System.out.println("{\"warmMs\":" + warm + ",\"loopMs\":" + loop + "}");
    System.out.flush();
    new BufferedReader(new InputStreamReader(System.in)).readLine();
    shell.close();
  }
}
