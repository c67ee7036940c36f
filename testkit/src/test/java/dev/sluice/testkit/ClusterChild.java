package dev.sluice.testkit;

import java.util.concurrent.CountDownLatch;

/**
 * Run in a child JVM by {@link LeftoverServersIT}: starts a one-server cluster, prints its folder
 * and mariadbd pid, then either exits without closing it ({@code exit}) or waits to be killed
 * ({@code wait}).
 */
public final class ClusterChild {

    private ClusterChild() {
    }

    public static void main(String[] args) throws InterruptedException {
        MariaDbCluster cluster = MariaDbCluster.start(ClusterSpec.builder().replicas(0).createTestSchema(false).build());
        System.out.println("FOLDER " + cluster.folder());
        System.out.println("PID " + cluster.primary().pid());
        System.out.flush();
        if ("exit".equals(args[0])) {
            System.exit(0); // never closes the cluster: the shutdown hook has to
        }
        new CountDownLatch(1).await(); // until the parent kills this JVM
    }
}
