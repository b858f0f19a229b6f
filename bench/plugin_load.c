/*
 * bench-plugin-load: workload 6. Times what the host does with its plugins
 * at start-up, through the host library itself: host_new (event loop,
 * signals, paths) and the MCP client (whose layer offers the feature and
 * auth services plugins ask for at init), then host_load_plugins (dlopen
 * every built plugin, check its ABI, call its init, map its transport
 * types), then host_free (every deinit). One fresh process per measurement, as in real use: the
 * dynamic linker's work is part of the cost. Prints one JSON line.
 *
 *   bench-plugin-load PLUGIN_DIR
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "core/host.h"
#include "mcp/client.h"

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fputs("usage: bench-plugin-load PLUGIN_DIR\n", stderr);
    return 2;
  }
  host_options ho = {.builtin_plugin_dir = argv[1]};
  uint64_t t0 = now_ns();
  host *h = host_new(&ho);
  if (!h)
    return 1;
  mcp_client *mc = mcp_client_new(h);
  uint64_t t1 = now_ns();
  host_load_plugins(h);
  uint64_t t2 = now_ns();
  size_t loaded = 0;
  for (size_t i = 0; i < h->reg.nplugins; i++)
    loaded += h->reg.plugins[i]->loaded;
  size_t found = h->reg.nplugins;
  host_free(h); /* then the client, as the CLI does */
  mcp_client_free(mc);
  uint64_t t3 = now_ns();
  printf("{\"mode\":\"plugins\",\"found\":%zu,\"loaded\":%zu,"
         "\"host_new_ms\":%.3f,\"load_ms\":%.3f,\"free_ms\":%.3f,"
         "\"total_ms\":%.3f}\n",
         found, loaded, (double)(t1 - t0) / 1e6, (double)(t2 - t1) / 1e6,
         (double)(t3 - t2) / 1e6, (double)(t2 - t0) / 1e6);
  return loaded == found && found > 0 ? 0 : 1;
}
