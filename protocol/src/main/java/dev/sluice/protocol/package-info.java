/** Sluice protocol module. */
package dev.sluice.protocol;
