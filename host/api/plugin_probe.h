/* The child of mcphost_plugin_check (plugin_probe.c) and how its parent
 * starts it (plugin_check.c). Not a public header. */
#ifndef MCPHOST_API_PLUGIN_PROBE_H
#define MCPHOST_API_PLUGIN_PROBE_H

/* The child's argv: {"/proc/self/exe", PLUGIN_PROBE_WORD, FILE}, with
 * PLUGIN_PROBE_ENV=1 in its environment. */
#define PLUGIN_PROBE_WORD "__plugin-probe"
#define PLUGIN_PROBE_ENV "MCPHOST_PLUGIN_PROBE"

/* Loads FILE (argv[2], absolute) alone and reports on fd 0; the process's
 * exit code. */
int plugin_probe_main(int argc, char **argv);

#endif
