/** Sluice slap module. */
package dev.sluice.slap;
