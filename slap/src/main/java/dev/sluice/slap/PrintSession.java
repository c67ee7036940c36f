package dev.sluice.slap;

import java.io.PrintWriter;
import java.util.List;

/** {@code --only-print}: every statement is printed with a {@code ;} as mysqlslap's run_query does. */
final class PrintSession implements SqlSession {

    private final PrintWriter out;

    PrintSession(PrintWriter out) {
        this.out = out;
    }

    @Override
    public void execute(String sql) {
        out.print(sql);
        out.print(";\n");
    }

    @Override
    public void useSchema(String schema) {
        out.print("use " + schema + ";\n");
    }

    @Override
    public List<String> column(String sql, int column) {
        execute(sql);
        return List.of();
    }

    @Override
    public void close() {
        out.flush();
    }
}
