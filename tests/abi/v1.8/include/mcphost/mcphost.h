/* mcphost plugin SDK — include this one header. */
#ifndef MCPHOST_MCPHOST_H
#define MCPHOST_MCPHOST_H

#include "abi.h"
#include "host.h"
#include "plugin.h"
#include "transport.h"
#include "server_source.h"
#include "permission.h"
#include "feature.h"
#include "command.h"
#include "rpc.h"
#include "auth.h"
#include "secrets.h"
#include "configuration.h"
#include "ui.h"

#endif /* MCPHOST_MCPHOST_H */
