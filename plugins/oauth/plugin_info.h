/* What the OAuth plugin says about itself, read by both of its halves:
 * the implementation (plugin.c, in lib/mcphost/impl/, which links
 * libcurl and OpenSSL) and the stub in lib/mcphost/plugins/
 * (transports/common/plugin_stub.c), which names it and what it
 * provides, so that neither library is loaded before a remote server or
 * one of its commands needs it. */
#ifndef MCPH_OAUTH_PLUGIN_INFO_H
#define MCPH_OAUTH_PLUGIN_INFO_H

#define PLUGIN_ID "mcphost.oauth"
#define PLUGIN_NAME "OAuth 2.1 authorization"
#define PLUGIN_VERSION "0.1.0"
#define PLUGIN_DESCRIPTION                                                     \
  "Authorizes mcphost at remote MCP servers with OAuth 2.1: discovery, "       \
  "client registration, PKCE, refresh, client credentials, cross-app "         \
  "access; mcp login, logout and auth-status."
#define PLUGIN_COMMANDS "mcp login", "mcp logout", "mcp auth-status"
#define PLUGIN_EXTENSIONS MCPH_EXT_AUTH, MCPH_EXT_COMMAND
/* The global option of every command (mcph_provides.options). */
#define OAUTH_BROWSER_OPTION "oauth-browser"
#define OAUTH_BROWSER_HELP                                                     \
  "OAuth sign-in: auto, print or follow (MCPHOST_OAUTH_BROWSER)"
/* Declared by the stub, so that parsing it does not load the plugin. */
#define PLUGIN_OPTIONS                                                         \
  { OAUTH_BROWSER_OPTION, "MODE", OAUTH_BROWSER_HELP }

#endif
