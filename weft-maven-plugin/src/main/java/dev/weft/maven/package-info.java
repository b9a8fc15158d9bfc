/**
 * Weft's Maven plugin: the {@code weave} goal weaves {@code target/classes}, the
 * {@code weave-tests} goal {@code target/test-classes}, and {@code help} describes both
 * ({@code mvn dev.weft:weft-maven-plugin:help -Ddetail}).
 */
package dev.weft.maven;
