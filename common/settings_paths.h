/* Where mcphost's own settings live, for the host's configuration loader
 * and for plugins that read a key of them (the claude.ai connectors'
 * opt-in): one rule, so both read the same files. */
#ifndef MCPHOST_SETTINGS_PATHS_H
#define MCPHOST_SETTINGS_PATHS_H

/* The user's settings file: $XDG_CONFIG_HOME/mcphost/settings.json when
 * XDG_CONFIG_HOME is absolute, else HOME/.config/mcphost/settings.json
 * (HOME NULL: "" in its place, a root-owned path nobody else can plant).
 * Returns a new string (free it), or NULL when out of memory. */
char *settings_user_file(const char *home);

/* The system directory of the enterprise files (managed-mcp.json,
 * managed-settings.json): $MCPHOST_SYSTEM_CONFIG_DIR when set and not
 * empty, else /etc/mcphost. The environment's string or a static one. */
const char *settings_system_dir(void);

#endif
