/**
 * Sluice's configuration: immutable, validated records ({@link dev.sluice.config.SluiceConfig} and
 * its parts) loaded from YAML by {@link dev.sluice.config.ConfigLoader} or built from command-line
 * flags by {@link dev.sluice.config.QuickStart}. Every problem is reported in one
 * {@link dev.sluice.config.ConfigException} naming source, line, column and key. The reference for
 * users is docs/configuration.md.
 */
package dev.sluice.config;
