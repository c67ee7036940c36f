/** Sluice proxy module. */
package dev.sluice.proxy;
