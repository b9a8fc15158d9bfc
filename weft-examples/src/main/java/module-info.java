/** The case studies of the thesis and the papers, as runnable programs. */
module dev.weft.examples {
    requires dev.weft;
    requires java.xml;
    requires java.net.http;
    requires dev.weft.sessions;
    requires org.eclipse.jetty.server;
}
