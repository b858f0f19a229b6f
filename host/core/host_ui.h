/* The "mcph.host.ui/1" service (ABI 1.6): questions, URLs and progress
 * on the terminal, for plugins. One question at a time. Loop thread. */
#ifndef MCPHOST_HOST_UI_H
#define MCPHOST_HOST_UI_H

#include <mcphost/mcphost.h>

struct host;

const mcph_host_ui *host_ui_service(void);
/* Withdraws an open question (host_free). */
void host_ui_free(struct host *h);

#endif
