package dev.sluice.proxy.admin;

import dev.sluice.proxy.mirror.MirrorControl;
import dev.sluice.proxy.mirror.MirrorDigest;
import dev.sluice.proxy.mirror.MirrorStats;
import dev.sluice.proxy.mirror.MirrorStatus;
import dev.sluice.proxy.sql.Digest;

/** What mirroring shows on the admin ports: SHOW MIRROR (one row) and the mirror table (one row per digest). */
final class MirrorTables {

    private MirrorTables() {
    }

    static Table summary(MirrorControl mirror) {
        MirrorStatus status = mirror.status();
        MirrorStats stats = mirror.stats();
        Table.Builder table = new Table.Builder("mirror").text("state").text("shadow").text("statements")
                .integer("connections").integer("waiting").integer("waiting_bytes").integer("queued").integer("dropped")
                .integer("compared").integer("mismatched").integer("failed").integer("skipped");
        table.row(status.running() ? "ON" : "OFF", status.shadow(), status.statements(), status.connections(),
                status.waiting(), status.waitingBytes(), stats.queuedCount(), stats.droppedCount(), stats.comparedCount(),
                stats.mismatchedCount(), stats.failedCount(), stats.skippedCount());
        return table.build();
    }

    /** Per digest, those with differences first. */
    static Table digests(MirrorControl mirror) {
        Table.Builder table = new Table.Builder("mirror").text("digest").text("digest_text").integer("compared")
                .integer("mismatched").integer("shadow_errors").decimal("client_p50_ms").decimal("client_p99_ms")
                .decimal("shadow_p50_ms").decimal("shadow_p99_ms").decimal("p99_ratio").text("example_sql")
                .text("example_difference");
        for (MirrorDigest d : mirror.stats().digests()) {
            table.row(Digest.hex(d.digest()), d.text(), d.compared(), d.mismatched(), d.shadowErrors(),
                    d.clientMillis(50), d.clientMillis(99), d.shadowMillis(50), d.shadowMillis(99), d.p99Ratio(),
                    d.exampleSql(), d.exampleDifference());
        }
        return table.build();
    }
}
