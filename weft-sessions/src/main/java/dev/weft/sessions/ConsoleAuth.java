package dev.weft.sessions;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Who may change sessions through the {@link SessionConsole}: nobody without a token; with one,
 * a request that proves it knows the token (the console's sign-in cookie, or an
 * {@code Authorization: Bearer} header) and comes from the console's own pages (a form field
 * derived from the token, and where the browser says, the same origin). The cookie and the
 * form field are HMAC-SHA256 values of the token, so that neither holds it, and each is
 * compared in constant time. Immutable; any thread.
 */
final class ConsoleAuth {

    /** The cookie a signed-in browser holds. */
    static final String COOKIE = "weft_console";
    /** The form field that proves a form came from the console's own page. */
    static final String FORM_FIELD = "form_token";

    private final byte[] token;
    private final String cookieValue;
    private final String formValue;

    /** Authorization by {@code token}; null: read-only, no change allowed. */
    ConsoleAuth(String token) {
        this.token = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
        this.cookieValue = token == null ? null : mac("weft-console sign-in");
        this.formValue = token == null ? null : mac("weft-console form");
    }

    /** Whether the console allows changes at all: a token is configured. */
    boolean allowsChanges() {
        return token != null;
    }

    /** Whether {@code given} is the token. */
    boolean isToken(String given) {
        return token != null && given != null
                && MessageDigest.isEqual(token, given.getBytes(StandardCharsets.UTF_8));
    }

    /** The value of the sign-in cookie. */
    String cookieValue() {
        return cookieValue;
    }

    /** The value of {@link #FORM_FIELD} on the console's forms, or null if it allows no change. */
    String formValue() {
        return formValue;
    }

    /** Whether the request carries the sign-in cookie or the token as a bearer. */
    boolean signedIn(Map<String, String> headers) {
        if (token == null) {
            return false;
        }
        String authorization = headers.getOrDefault("authorization", "");
        if (authorization.regionMatches(true, 0, "Bearer ", 0, 7) && isToken(authorization.substring(7).trim())) {
            return true;
        }
        return equal(cookie(headers.getOrDefault("cookie", ""), COOKIE), cookieValue);
    }

    /** Whether {@code given} is the form field's value. */
    boolean formMatches(String given) {
        return formValue != null && equal(given, formValue);
    }

    /**
     * Why the request is not from the console's own origin, or null if it is or the browser does
     * not say: {@code Sec-Fetch-Site} other than same-origin or none, or an {@code Origin} whose
     * host is not the request's {@code Host}.
     */
    static String crossSite(Map<String, String> headers) {
        String site = headers.get("sec-fetch-site");
        if (site != null && !site.equals("same-origin") && !site.equals("none")) {
            return "the browser says it comes from another site (Sec-Fetch-Site: " + site + ")";
        }
        String origin = headers.get("origin");
        String host = headers.get("host");
        if (origin != null && !origin.equals("null") && host != null) {
            int scheme = origin.indexOf("://");
            String originHost = scheme < 0 ? origin : origin.substring(scheme + 3);
            if (!originHost.equalsIgnoreCase(host)) {
                return "it comes from " + origin + ", not from this console's host " + host;
            }
        }
        return null;
    }

    /** The value of cookie {@code name} in a {@code Cookie} header, or null. */
    static String cookie(String header, String name) {
        for (String part : header.split(";")) {
            String pair = part.trim();
            if (pair.startsWith(name + "=")) {
                return pair.substring(name.length() + 1);
            }
        }
        return null;
    }

    private static boolean equal(String given, String expected) {
        return given != null && expected != null && MessageDigest.isEqual(given.getBytes(StandardCharsets.US_ASCII),
                expected.getBytes(StandardCharsets.US_ASCII));
    }

    private String mac(String purpose) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(token, "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(purpose.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
        }
    }
}
