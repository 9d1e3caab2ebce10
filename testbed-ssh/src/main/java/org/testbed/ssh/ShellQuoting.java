package org.testbed.ssh;

import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Quoting for the remote shell: ssh hands the remote side one string, which its login shell splits
 * again, so every argument is quoted to arrive as it was given.
 */
public final class ShellQuoting {
    /** Words that need no quotes: they read the same quoted or not, which keeps commands legible. */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9._/+:=@%,-]+");

    private ShellQuoting() {
    }

    /** One argument: as is when plain, else in single quotes (a quote inside becomes {@code '\''}). */
    public static String quote(String word) {
        if (PLAIN.matcher(word).matches()) {
            return word;
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }

    /** A command line whose words the remote shell splits back into exactly {@code words}. */
    public static String command(List<String> words) {
        return words.stream().map(ShellQuoting::quote).collect(Collectors.joining(" "));
    }
}
