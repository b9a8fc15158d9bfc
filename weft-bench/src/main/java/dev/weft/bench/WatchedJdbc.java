package dev.weft.bench;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * A JDBC driver, ahead of the real ones in {@link DriverManager}, for the database URLs a probe
 * {@linkplain #watch watches}: it opens the real driver's connection and hands out a view of it
 * that tells {@link StepWatch} when a transaction commits or rolls back on it, whichever way the
 * store ends it ({@code Connection.commit()}, or a statement whose SQL ends with {@code COMMIT}
 * or is {@code ROLLBACK}). Every other call goes to the real connection as it is, {@code unwrap}
 * included. URLs not watched are left to the real drivers.
 */
final class WatchedJdbc implements Driver {

    private static final Set<String> WATCHED = ConcurrentHashMap.newKeySet();
    private static final WatchedJdbc INSTANCE = new WatchedJdbc();
    private static boolean installed;

    private WatchedJdbc() {
    }

    /**
     * Makes connections to {@code url} (exactly as the store will ask for it) watched; the
     * driver is put ahead of the others the first time.
     */
    static synchronized void watch(String url) throws SQLException {
        WATCHED.add(url);
        if (!installed) {
            List<Driver> others = Collections.list(DriverManager.getDrivers());
            for (Driver driver : others) {
                DriverManager.deregisterDriver(driver);
            }
            DriverManager.registerDriver(INSTANCE);
            for (Driver driver : others) {
                DriverManager.registerDriver(driver);
            }
            installed = true;
        }
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        for (Driver driver : Collections.list(DriverManager.getDrivers())) {
            if (driver != this && driver.acceptsURL(url)) {
                return watched(driver.connect(url, info));
            }
        }
        throw new SQLException("no driver for watched URL " + url);
    }

    private static Connection watched(Connection real) {
        return (Connection) Proxy.newProxyInstance(WatchedJdbc.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    Object result = call(real, method, args);
                    switch (method.getName()) {
                        case "commit" -> StepWatch.committed();
                        case "rollback" -> {
                            if (args == null) {
                                StepWatch.rolledBack();
                            }
                        }
                        case "createStatement" -> result = statement((Statement) result);
                        case "prepareStatement" -> result = prepared((PreparedStatement) result, (String) args[0]);
                        default -> { }
                    }
                    return result;
                });
    }

    /** A statement that tells of the transaction ends its SQL makes. */
    private static Statement statement(Statement real) {
        return (Statement) Proxy.newProxyInstance(WatchedJdbc.class.getClassLoader(), new Class<?>[] {Statement.class},
                (proxy, method, args) -> {
                    Object result = call(real, method, args);
                    if (method.getName().startsWith("execute") && args != null && args[0] instanceof String sql) {
                        ended(sql);
                    }
                    return result;
                });
    }

    /** The prepared statement as it is, unless its SQL ends a transaction: then one that tells of it. */
    private static PreparedStatement prepared(PreparedStatement real, String sql) {
        if (end(sql) == null) {
            return real;
        }
        InvocationHandler handler = (proxy, method, args) -> {
            Object result = call(real, method, args);
            if (method.getName().startsWith("execute") && args == null) {
                ended(sql);
            }
            return result;
        };
        return (PreparedStatement) Proxy.newProxyInstance(WatchedJdbc.class.getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, handler);
    }

    private static void ended(String sql) {
        String end = end(sql);
        if ("COMMIT".equals(end)) {
            StepWatch.committed();
        } else if ("ROLLBACK".equals(end)) {
            StepWatch.rolledBack();
        }
    }

    /** {@code COMMIT} if {@code sql} ends with one, {@code ROLLBACK} if it is one, else null. */
    static String end(String sql) {
        String text = sql.strip().toUpperCase(Locale.ROOT);
        if (text.endsWith(";")) {
            text = text.substring(0, text.length() - 1).strip();
        }
        if (text.equals("COMMIT") || text.endsWith("; COMMIT") || text.endsWith(";COMMIT")) {
            return "COMMIT";
        }
        return text.equals("ROLLBACK") ? "ROLLBACK" : null;
    }

    private static Object call(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @Override
    public boolean acceptsURL(String url) {
        return url != null && WATCHED.contains(url);
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
        return new DriverPropertyInfo[0];
    }

    @Override
    public int getMajorVersion() {
        return 1;
    }

    @Override
    public int getMinorVersion() {
        return 0;
    }

    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("no logging");
    }
}
