package dev.sluice.slap;

import java.util.List;

/**
 * What a run executes: mysqlslap's generator options, or the user's own create and query text.
 * Defaults are mysqlslap's; see {@link SlapOptions.Builder}.
 */
public record WorkloadOptions(
        boolean autoGenerateSql,
        String loadType,
        boolean addAutoincrement,
        boolean guidPrimary,
        long executeNumber,
        long uniqueQueryNumber,
        long uniqueWriteNumber,
        long writeNumber,
        int secondaryIndexes,
        ColumnSpec intCols,
        ColumnSpec charCols,
        String query,
        String create,
        String preQuery,
        String postQuery,
        String delimiter,
        String createSchema,
        List<EngineSpec> engines) {

    public WorkloadOptions {
        engines = List.copyOf(engines);
        if (delimiter == null || delimiter.isEmpty()) {
            throw new SlapException("--delimiter is empty (expected: at least one character)", 1);
        }
        if (createSchema == null || createSchema.isEmpty()) {
            throw new SlapException("--create-schema is empty (expected: a schema name)", 1);
        }
    }

    public LoadType parsedLoadType() {
        return LoadType.of(loadType);
    }

    /** True when slap creates the schema, so it also drops it (unless --no-drop). */
    boolean createsSchema() {
        return autoGenerateSql || create != null;
    }

    boolean hasPrimaryKey() {
        return autoGenerateSql && (addAutoincrement || guidPrimary);
    }
}
