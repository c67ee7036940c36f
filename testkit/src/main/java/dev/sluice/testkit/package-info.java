/** Sluice testkit module. */
package dev.sluice.testkit;
