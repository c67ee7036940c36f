/** Sluice cli module. */
package dev.sluice.cli;
