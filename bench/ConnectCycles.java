import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Connect, SELECT 1, quit, as an application that connects per request does, from THREADS
 * threads for SECONDS: prints {@code cycles=N per_s=R errors=E}. Connector/J (on the class path)
 * with TLS off and its default connect-time queries, so a cycle is what such a client costs.
 *
 * <p>Usage: {@code java -cp connector.jar ConnectCycles.java HOST PORT USER PASSWORD THREADS SECONDS}.
 */
public final class ConnectCycles {

    public static void main(String[] args) throws Exception {
        String url = "jdbc:mysql://" + args[0] + ":" + args[1] + "/?sslMode=DISABLED&allowPublicKeyRetrieval=true";
        String user = args[2];
        String password = args[3];
        int threads = Integer.parseInt(args[4]);
        long seconds = Long.parseLong(args[5]);
        AtomicLong cycles = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        long started = System.nanoTime();
        long end = started + seconds * 1_000_000_000L;
        Thread[] workers = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            workers[i] = new Thread(() -> {
                while (System.nanoTime() < end) {
                    try (Connection c = DriverManager.getConnection(url, user, password);
                         Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT 1")) {
                        r.next();
                        cycles.incrementAndGet();
                    } catch (Exception e) {
                        if (errors.incrementAndGet() == 1) {
                            System.err.println("first error: " + e);
                        }
                    }
                }
            });
            workers[i].start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
        double elapsed = (System.nanoTime() - started) / 1e9;
        System.out.printf("cycles=%d per_s=%.1f errors=%d%n", cycles.get(), cycles.get() / elapsed, errors.get());
    }
}
