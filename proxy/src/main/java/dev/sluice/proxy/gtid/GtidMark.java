package dev.sluice.proxy.gtid;

/**
 * The writes a read on a replica must see, as one server flavor names them: a MariaDB
 * {@link GtidPosition} or a MySQL {@link GtidSet}. Read-your-writes keeps, compares and waits for
 * either the same way; only the type and the statement that waits differ.
 */
public sealed interface GtidMark permits GtidPosition, GtidSet {

    boolean isEmpty();

    /**
     * The statement that waits, at most {@code timeoutSeconds}, until a replica has applied these
     * writes; its one column is 0 when it got there, anything else (or an error) when it did not.
     */
    String waitStatement(double timeoutSeconds);
}
