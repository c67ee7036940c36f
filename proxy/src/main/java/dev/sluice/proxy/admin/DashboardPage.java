package dev.sluice.proxy.admin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The live page the HTTP admin serves at {@code /}: one HTML file from the classpath with its
 * style and script inline, no other asset. It holds no data (it fetches {@code /api/overview}
 * with the token), so it is served without one. Its Content-Security-Policy allows exactly its
 * own inline script and style, by hash, and connections to this port only: the page shows text
 * that clients chose (SQL, user names), and a slip that let it run would still run nothing.
 */
final class DashboardPage {

    static final String RESOURCE = "dashboard.html";
    private static final Pattern SCRIPT = Pattern.compile("<script>(.*?)</script>", Pattern.DOTALL);
    private static final Pattern STYLE = Pattern.compile("<style>(.*?)</style>", Pattern.DOTALL);

    private final byte[] html;
    private final String contentSecurityPolicy;

    private DashboardPage(String text) {
        this.html = text.getBytes(StandardCharsets.UTF_8);
        this.contentSecurityPolicy = "default-src 'none'; script-src " + hash(SCRIPT, text) + "; style-src "
                + hash(STYLE, text) + "; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none';"
                + " frame-ancestors 'none'";
    }

    static DashboardPage load() {
        try (InputStream in = DashboardPage.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the classpath (next to "
                        + DashboardPage.class.getName() + ")");
            }
            return new DashboardPage(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    byte[] html() {
        return html.clone();
    }

    String contentSecurityPolicy() {
        return contentSecurityPolicy;
    }

    /** The CSP source of the one block {@code pattern} finds: its SHA-256, as browsers compute it. */
    private static String hash(Pattern pattern, String text) {
        Matcher block = pattern.matcher(text);
        if (!block.find()) {
            throw new IllegalStateException(RESOURCE + " has no " + pattern.pattern().substring(0, 8) + " block");
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(block.group(1).getBytes(StandardCharsets.UTF_8));
            return "'sha256-" + Base64.getEncoder().encodeToString(digest) + "'";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no SHA-256 in this JRE", e);
        }
    }
}
