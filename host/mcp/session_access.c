#include "mcp/session_access.h"

#include "mcp/session.h"

host *session_host(const session *s) {
  return s->h;
}

const server_config *session_config(const session *s) {
  return s->cfg;
}

const char *session_name(const session *s) {
  return s->cfg->name;
}

rpc *session_rpc(const session *s) {
  return s->rpc;
}

bool session_is_ready(const session *s) {
  return s->state == SESS_READY;
}

const char *session_protocol_version(const session *s) {
  return s->protocol_version;
}

const cJSON *session_server_caps(const session *s) {
  return s->server_caps;
}

const cJSON *session_server_info(const session *s) {
  return s->server_info;
}

const mcph_transport_factory *session_transport_factory(const session *s) {
  return s->tf;
}

mcph_transport *session_transport(const session *s) {
  return s->t;
}

struct feature_request **session_feature_requests(session *s) {
  return &s->feature_requests;
}
