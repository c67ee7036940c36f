/**
 * Connections the proxy opens to servers for itself, outside any client session: the health
 * checks' and the mirror's shadow's. Each logs in once and runs one command at a time.
 */
package dev.sluice.proxy.probe;
