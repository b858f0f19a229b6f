#include "core/host_transports.h"

#include "core/host.h"

static int svc_create(const mcph_host *api, const mcph_transport_params *params,
                      const mcph_transport_factory **factory,
                      mcph_transport **out, mcph_error *err) {
  host *h = host_from_api(api);
  plugin *caller = host_caller(api);
  if (!params || !MCPH_HAS(params, mcph_transport_params, events) ||
      !params->type || !params->events || !factory || !out) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "transports: create needs a type, events and "
                          "where to put the transport");
  }
  const type_binding *tb = registry_find_type(&h->reg, params->type);
  if (!tb) {
    return mcph_error_set(err, MCPH_ENOTFOUND,
                          "no plugin serves transport type \"%s\"",
                          params->type);
  }
  if (tb->winner == caller) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "transport type \"%s\" is served by %s itself: a "
                          "plugin does not compose its own types",
                          params->type, caller->id);
  }
  const mcph_transport_factory *f = plugin_transport(tb->winner, err);
  if (!f) {
    if (err) {
      err->code = MCPH_ENOTFOUND;
    }
    return MCPH_ENOTFOUND;
  }
  mcph_transport_params p = *params;
  p.struct_size = sizeof p;
  p.config_json = params->config_json ? params->config_json : "{}";
  int rc = f->create(tb->winner->ctx, &p, out, err);
  if (rc != MCPH_OK) {
    return rc < 0 ? rc : MCPH_EINVAL;
  }
  *factory = f;
  if (caller) {
    host_log(h, MCPH_LOG_DEBUG, caller->id, "created a \"%s\" transport of %s",
             params->type, tb->winner->id);
  }
  return MCPH_OK;
}

const mcph_host_transports *host_transports_service(void) {
  static const mcph_host_transports svc = {
      .struct_size = sizeof svc,
      .create = svc_create,
  };
  return &svc;
}
