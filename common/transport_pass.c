/* See transport_pass.h. */
#include "transport_pass.h"

#include <stddef.h>

#define UP(ud) (((transport_pass *)(ud))->up)
/* Whether the host's events have `field` (its ABI) and set it. */
#define UP_HAS(ud, field)                                                      \
  (MCPH_HAS(UP(ud), mcph_transport_events, field) && UP(ud)->field)

void pass_up_message(void *ud, const char *json, size_t len) {
  UP(ud)->on_message(UP(ud)->ud, json, len);
}

void pass_up_error(void *ud, int code, const char *message) {
  UP(ud)->on_error(UP(ud)->ud, code, message);
}

void pass_up_close(void *ud, int code, const char *reason) {
  UP(ud)->on_close(UP(ud)->ud, code, reason);
}

void pass_up_send_failed(void *ud, int code, const char *message,
                         const char *json, size_t len) {
  if (UP_HAS(ud, on_send_failed)) {
    UP(ud)->on_send_failed(UP(ud)->ud, code, message, json, len);
  } else {
    pass_up_error(ud, code, message);
  }
}

void pass_up_dropped(void *ud, int code, const char *message,
                     const char *head, size_t head_len, size_t total) {
  if (UP_HAS(ud, on_message_dropped)) {
    UP(ud)->on_message_dropped(UP(ud)->ud, code, message, head, head_len,
                               total);
  } else {
    pass_up_error(ud, code, message);
  }
}

void pass_up_session_reset(void *ud, const char *message) {
  if (UP_HAS(ud, on_session_reset)) {
    UP(ud)->on_session_reset(UP(ud)->ud, message);
  } else {
    pass_up_error(ud, MCPH_ESESSION, message);
  }
}

void pass_up_auth_required(void *ud, const mcph_auth_challenge *ch) {
  if (UP_HAS(ud, on_auth_required)) {
    UP(ud)->on_auth_required(UP(ud)->ud, ch);
  }
}

void pass_init(transport_pass *p, const mcph_transport_events *up,
               void *owner) {
  *p = (transport_pass){
      .up = up,
      .owner = owner,
      .down = {.struct_size = sizeof(mcph_transport_events),
               .ud = p,
               .on_message = pass_up_message,
               .on_error = pass_up_error,
               .on_close = pass_up_close,
               .on_send_failed = pass_up_send_failed,
               .on_message_dropped = pass_up_dropped,
               .on_session_reset = pass_up_session_reset,
               .on_auth_required = pass_up_auth_required},
  };
}

int pass_create(transport_pass *p, const mcph_host_transports *svc,
                const mcph_host *host, const char *type, const char *server,
                const char *config_json, mcph_error *err) {
  mcph_transport_params ip = {.struct_size = sizeof ip,
                              .type = type,
                              .server_name = server,
                              .config_json = config_json,
                              .events = &p->down};
  return svc->create(host, &ip, &p->f, &p->inner, err);
}

int pass_start(transport_pass *p, mcph_error *err) {
  return p->f->start(p->inner, err);
}

int pass_send(transport_pass *p, const char *json, size_t len,
              mcph_error *err) {
  return p->f->send(p->inner, json, len, err);
}

void pass_close(transport_pass *p) {
  p->f->close(p->inner);
}

void pass_destroy(transport_pass *p) {
  if (p->inner) {
    p->f->destroy(p->inner);
    p->inner = NULL;
  }
}

const char *pass_session_id(transport_pass *p) {
  return p->f->session_id ? p->f->session_id(p->inner) : NULL;
}

void pass_set_protocol_version(transport_pass *p, const char *version) {
  if (p->f->set_protocol_version) {
    p->f->set_protocol_version(p->inner, version);
  }
}
