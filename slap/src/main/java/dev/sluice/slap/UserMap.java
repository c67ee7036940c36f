package dev.sluice.slap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --user-map FILE}: which account each captured user's sessions replay as. One line per
 * captured user: its name, blanks, then {@code user[:password]} to log in with; {@code *} stands
 * for every user not named. A password left out is the command line's ({@code -p}), so a file of
 * {@code app app:secret} lines is a passwords file. Blank lines and lines starting with {@code #}
 * are skipped; the password is everything after the first colon, spaces and colons included.
 *
 * <pre>
 * # captured   replay as
 * app          app:s3cret
 * reporting    report_test:other pass
 * *            tester
 * </pre>
 */
public final class UserMap {

    /** An account to log in with; {@code password} null means the command line's. */
    record Account(String user, String password) {
    }

    /**
     * Who a session logs in as, and whether that is its captured user.
     *
     * @param mapped whether the map named the captured user (or {@code *} did)
     */
    record Login(String user, String password, boolean mapped) {
    }

    static final UserMap NONE = new UserMap(Map.of(), null, null);

    private final Map<String, Account> accounts;
    private final Account fallback;
    private final Path file;

    private UserMap(Map<String, Account> accounts, Account fallback, Path file) {
        this.accounts = accounts;
        this.fallback = fallback;
        this.file = file;
    }

    static UserMap read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new SlapException("--user-map: " + file + ": no such file", 1, e);
        } catch (IOException e) {
            throw new SlapException("--user-map: " + file + ": " + e.getMessage(), 1, e);
        }
        Map<String, Account> accounts = new HashMap<>();
        Account fallback = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\\s+", 2);
            if (parts.length < 2) {
                throw new SlapException("--user-map: " + file + ":" + (i + 1) + ": '" + parts[0] + "' names no account"
                        + " (expected: CAPTURED_USER USER[:PASSWORD], e.g. app app:secret)", 1);
            }
            int colon = parts[1].indexOf(':');
            Account account = colon < 0 ? new Account(parts[1], null)
                    : new Account(parts[1].substring(0, colon), parts[1].substring(colon + 1));
            if (account.user().isEmpty()) {
                throw new SlapException("--user-map: " + file + ":" + (i + 1) + ": no user name before the ':'"
                        + " (expected: CAPTURED_USER USER[:PASSWORD])", 1);
            }
            if (parts[0].equals("*")) {
                fallback = account;
            } else if (accounts.putIfAbsent(parts[0], account) != null) {
                throw new SlapException("--user-map: " + file + ":" + (i + 1) + ": " + parts[0]
                        + " is mapped twice (expected: one line per captured user)", 1);
            }
        }
        return new UserMap(Map.copyOf(accounts), fallback, file);
    }

    /**
     * Who replays a session captured as {@code capturedUser} (null in a pass-through capture),
     * with {@code user} and {@code password} from the command line for what the map does not name.
     */
    Login login(String capturedUser, String user, String password) {
        Account account = capturedUser == null ? null : accounts.get(capturedUser);
        if (account == null) {
            account = fallback;
        }
        if (account == null) {
            return new Login(user, password, false);
        }
        return new Login(account.user(), account.password() != null ? account.password() : password, true);
    }

    boolean isEmpty() {
        return file == null;
    }
}
