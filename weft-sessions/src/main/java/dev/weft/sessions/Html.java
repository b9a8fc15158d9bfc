package dev.weft.sessions;

/**
 * A page of HTML being written: text escaped wherever it goes, markup as given. The console's
 * only way to put text from the store or a request on a page. Not thread-safe; one per page.
 */
final class Html {

    private final StringBuilder out = new StringBuilder(8192);

    /** Appends {@code markup} as it is: a constant of the page, never text from elsewhere. */
    Html raw(String markup) {
        out.append(markup);
        return this;
    }

    /** Appends {@code text} escaped for an element's content or a quoted attribute; null as nothing. */
    Html text(Object text) {
        if (text != null) {
            out.append(escape(String.valueOf(text)));
        }
        return this;
    }

    /** {@code text} with {@code & < > " '} as character references. */
    static String escape(String text) {
        StringBuilder escaped = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&#39;");
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }

    /** {@code text} encoded as one value of a URL's query. */
    static String query(String text) {
        return java.net.URLEncoder.encode(text, java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
