/** Sluice config module. */
package dev.sluice.config;
