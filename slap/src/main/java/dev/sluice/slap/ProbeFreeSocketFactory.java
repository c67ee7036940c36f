package dev.sluice.slap;

import com.mysql.cj.conf.PropertySet;
import com.mysql.cj.protocol.StandardSocketFactory;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;

/**
 * Connector/J's plain TCP sockets, except that the input stream's {@code available()} answers 0
 * without asking the kernel. Before sending each command Connector/J drains whatever is left
 * unread (clearInputStream), which costs a FIONREAD system call per statement; slap reads every
 * result to its end, so there is never anything left, and 0 is always a valid answer of
 * {@code available()}. Named in Connector/J's {@code socketFactory} property, so it needs a
 * public no-argument constructor.
 */
public final class ProbeFreeSocketFactory extends StandardSocketFactory {

    public ProbeFreeSocketFactory() {
    }

    @Override
    protected Socket createSocket(PropertySet props) {
        return new ProbeFreeSocket();
    }

    private static final class ProbeFreeSocket extends Socket {

        private InputStream input;

        @Override
        public synchronized InputStream getInputStream() throws IOException {
            if (input == null) {
                input = new FilterInputStream(super.getInputStream()) {
                    @Override
                    public int available() {
                        return 0;
                    }
                };
            }
            return input;
        }
    }
}
