/* The frozen record of the plugin ABI's layout (ABI 1.8): every
 * public struct's size and alignment, each field's offset, size and type,
 * the public enums' values, the integer constants and the ids. Written by
 * tests/abi/gen_layout.py when the minor was frozen, never by hand, and
 * compiled in every build: a header change that moves, resizes or
 * retypes a field, or renumbers a constant, fails the build here.
 * A struct led by struct_size may grow at its end (a later minor), so its
 * size is a floor; a struct without struct_size is exact. The ids cannot
 * be compared at compile time: main() compares them (ctest abi_layout).
 * For LP64 Linux on x86_64 and aarch64, the platforms mcphost is built
 * for; elsewhere the numbers differ and this file refuses to build. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <mcphost/mcphost.h>

#if !defined(__linux__) || !defined(__LP64__) ||                               \
    !(defined(__x86_64__) || defined(__aarch64__))
#error "tests/abi/abi_layout.c records LP64 Linux (x86_64, aarch64) only"
#endif

/* T's size is at least N (it may grow at the end) / exactly N. */
#define GROWS(T, n, a)                                                         \
  _Static_assert(sizeof(T) >= (n) && _Alignof(T) == (a), #T ": size")
#define EXACT(T, n, a)                                                         \
  _Static_assert(sizeof(T) == (n) && _Alignof(T) == (a), #T ": size")
/* Field f of T: at `off`, `size` bytes, of type TYPE. */
#define FIELD(T, f, off, size, TYPE)                                           \
  _Static_assert(                                                              \
      offsetof(T, f) == (off) && sizeof(((T *)0)->f) == (size) &&              \
          _Generic(&((T *)0)->f, __typeof__(TYPE) * : 1, default : 0),         \
      #T "." #f ": offset, size or type")
#define VALUE(c, v) _Static_assert((c) == (v), #c " == " #v)
#define AT_LEAST(c, v) _Static_assert((c) >= (v), #c " >= " #v)

/* struct mcph_error (abi.h) */
GROWS(struct mcph_error, 536, 8);
FIELD(struct mcph_error, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_error, code, 4, 4, int32_t);
FIELD(struct mcph_error, message, 8, 512, char[512]);
FIELD(struct mcph_error, rpc_code, 520, 4, int32_t);
FIELD(struct mcph_error, rpc_data, 528, 8, const char *);

/* struct mcph_host (host.h) */
GROWS(struct mcph_host, 104, 8);
FIELD(struct mcph_host, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_host, abi_major, 4, 4, uint32_t);
FIELD(struct mcph_host, abi_minor, 8, 4, uint32_t);
FIELD(struct mcph_host, host_version, 16, 8, const char *);
FIELD(struct mcph_host, log, 24, 8,
      void (*)(const mcph_host *, int, const char *, const char *));
FIELD(struct mcph_host, fd_watch, 32, 8,
      int (*)(const mcph_host *, int, unsigned int, mcph_fd_cb, void *,
              mcph_watch **));
FIELD(struct mcph_host, fd_update, 40, 8,
      int (*)(const mcph_host *, mcph_watch *, unsigned int));
FIELD(struct mcph_host, fd_unwatch, 48, 8,
      void (*)(const mcph_host *, mcph_watch *));
FIELD(struct mcph_host, timer_start, 56, 8,
      int (*)(const mcph_host *, uint64_t, mcph_timer_cb, void *,
              mcph_timer **));
FIELD(struct mcph_host, timer_cancel, 64, 8,
      void (*)(const mcph_host *, mcph_timer *));
FIELD(struct mcph_host, post, 72, 8,
      int (*)(const mcph_host *, mcph_post_cb, void *));
FIELD(struct mcph_host, now_ms, 80, 8, uint64_t (*)(const mcph_host *));
FIELD(struct mcph_host, get_path, 88, 8,
      const char *(*)(const mcph_host *, int));
FIELD(struct mcph_host, get_service, 96, 8,
      const void *(*)(const mcph_host *, const char *));

/* struct mcph_auth_challenge (transport.h) */
GROWS(struct mcph_auth_challenge, 80, 8);
FIELD(struct mcph_auth_challenge, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_auth_challenge, status, 4, 4, int);
FIELD(struct mcph_auth_challenge, url, 8, 8, const char *);
FIELD(struct mcph_auth_challenge, www_authenticate, 16, 8, const char *);
FIELD(struct mcph_auth_challenge, scheme, 24, 8, const char *);
FIELD(struct mcph_auth_challenge, realm, 32, 8, const char *);
FIELD(struct mcph_auth_challenge, scope, 40, 8, const char *);
FIELD(struct mcph_auth_challenge, error, 48, 8, const char *);
FIELD(struct mcph_auth_challenge, error_description, 56, 8, const char *);
FIELD(struct mcph_auth_challenge, resource_metadata, 64, 8, const char *);
FIELD(struct mcph_auth_challenge, protocol_version, 72, 8, const char *);

/* struct mcph_transport_type_info (transport.h) */
GROWS(struct mcph_transport_type_info, 24, 8);
FIELD(struct mcph_transport_type_info, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_transport_type_info, type, 8, 8, const char *);
FIELD(struct mcph_transport_type_info, flags, 16, 4, unsigned int);

/* struct mcph_transport_events (transport.h) */
GROWS(struct mcph_transport_events, 80, 8);
FIELD(struct mcph_transport_events, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_transport_events, ud, 8, 8, void *);
FIELD(struct mcph_transport_events, on_message, 16, 8,
      void (*)(void *, const char *, size_t));
FIELD(struct mcph_transport_events, on_error, 24, 8,
      void (*)(void *, int, const char *));
FIELD(struct mcph_transport_events, on_close, 32, 8,
      void (*)(void *, int, const char *));
FIELD(struct mcph_transport_events, on_send_failed, 40, 8,
      void (*)(void *, int, const char *, const char *, size_t));
FIELD(struct mcph_transport_events, on_message_dropped, 48, 8,
      void (*)(void *, int, const char *, const char *, size_t, size_t));
FIELD(struct mcph_transport_events, on_session_reset, 56, 8,
      void (*)(void *, const char *));
FIELD(struct mcph_transport_events, on_auth_required, 64, 8,
      void (*)(void *, const mcph_auth_challenge *));
FIELD(struct mcph_transport_events, on_message_owned, 72, 8,
      void (*)(void *, char *, size_t));

/* struct mcph_transport_params (transport.h) */
GROWS(struct mcph_transport_params, 40, 8);
FIELD(struct mcph_transport_params, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_transport_params, type, 8, 8, const char *);
FIELD(struct mcph_transport_params, server_name, 16, 8, const char *);
FIELD(struct mcph_transport_params, config_json, 24, 8, const char *);
FIELD(struct mcph_transport_params, events, 32, 8,
      const mcph_transport_events *);

/* struct mcph_transport_factory (transport.h) */
GROWS(struct mcph_transport_factory, 96, 8);
FIELD(struct mcph_transport_factory, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_transport_factory, types, 8, 8, const char *const *);
FIELD(struct mcph_transport_factory, create, 16, 8,
      int (*)(void *, const mcph_transport_params *, mcph_transport **,
              mcph_error *));
FIELD(struct mcph_transport_factory, start, 24, 8,
      int (*)(mcph_transport *, mcph_error *));
FIELD(struct mcph_transport_factory, send, 32, 8,
      int (*)(mcph_transport *, const char *, size_t, mcph_error *));
FIELD(struct mcph_transport_factory, close, 40, 8, void (*)(mcph_transport *));
FIELD(struct mcph_transport_factory, destroy, 48, 8,
      void (*)(mcph_transport *));
FIELD(struct mcph_transport_factory, session_id, 56, 8,
      const char *(*)(mcph_transport *));
FIELD(struct mcph_transport_factory, set_protocol_version, 64, 8,
      void (*)(mcph_transport *, const char *));
FIELD(struct mcph_transport_factory, set_authorization, 72, 8,
      int (*)(mcph_transport *, const char *));
FIELD(struct mcph_transport_factory, type_info, 80, 8,
      const mcph_transport_type_info *);
FIELD(struct mcph_transport_factory, send_headers, 88, 8,
      int (*)(mcph_transport *, const char *, size_t, const char *const *,
              size_t, mcph_error *));

/* struct mcph_host_transports (transport.h) */
GROWS(struct mcph_host_transports, 16, 8);
FIELD(struct mcph_host_transports, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_host_transports, create, 8, 8,
      int (*)(const mcph_host *, const mcph_transport_params *,
              const mcph_transport_factory **, mcph_transport **,
              mcph_error *));

/* struct mcph_provides (plugin.h) */
GROWS(struct mcph_provides, 96, 8);
FIELD(struct mcph_provides, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_provides, transport_types, 8, 8, const char *const *);
FIELD(struct mcph_provides, requests, 16, 8, const char *const *);
FIELD(struct mcph_provides, notifications, 24, 8, const char *const *);
FIELD(struct mcph_provides, commands, 32, 8, const char *const *);
FIELD(struct mcph_provides, extensions, 40, 8, const char *const *);
FIELD(struct mcph_provides, implementation, 48, 8, const char *);
FIELD(struct mcph_provides, transport_info, 56, 8,
      const mcph_transport_type_info *);
FIELD(struct mcph_provides, options, 64, 8, const struct mcph_options *);
FIELD(struct mcph_provides, has_servers, 72, 8, int (*)(const mcph_host *));
FIELD(struct mcph_provides, source_description, 80, 8, const char *);
FIELD(struct mcph_provides, capabilities, 88, 8,
      const char *(*)(const mcph_host *, int *));

/* struct mcph_entry (plugin.h) */
GROWS(struct mcph_entry, 80, 8);
FIELD(struct mcph_entry, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_entry, abi_major, 4, 4, uint32_t);
FIELD(struct mcph_entry, abi_minor, 8, 4, uint32_t);
FIELD(struct mcph_entry, id, 16, 8, const char *);
FIELD(struct mcph_entry, name, 24, 8, const char *);
FIELD(struct mcph_entry, version, 32, 8, const char *);
FIELD(struct mcph_entry, description, 40, 8, const char *);
FIELD(struct mcph_entry, init, 48, 8,
      int (*)(const mcph_host *, void **, mcph_error *));
FIELD(struct mcph_entry, get_extension, 56, 8,
      const void *(*)(void *, const char *));
FIELD(struct mcph_entry, deinit, 64, 8, void (*)(void *));
FIELD(struct mcph_entry, provides, 72, 8, const mcph_provides *);

/* struct mcph_server_source (server_source.h) */
GROWS(struct mcph_server_source, 32, 8);
FIELD(struct mcph_server_source, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_server_source, description, 8, 8, const char *);
FIELD(struct mcph_server_source, list_servers, 16, 8,
      int (*)(void *, mcph_server_source_emit_fn, void *, mcph_error *));
FIELD(struct mcph_server_source, list, 24, 8,
      int (*)(void *, mcph_request *, mcph_error *));

/* struct mcph_permission_request (permission.h) */
GROWS(struct mcph_permission_request, 80, 8);
FIELD(struct mcph_permission_request, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_permission_request, tool, 8, 8, const char *);
FIELD(struct mcph_permission_request, server, 16, 8, const char *);
FIELD(struct mcph_permission_request, tool_name, 24, 8, const char *);
FIELD(struct mcph_permission_request, arguments_json, 32, 8, const char *);
FIELD(struct mcph_permission_request, reason, 40, 8, const char *);
FIELD(struct mcph_permission_request, reply, 48, 8,
      void (*)(mcph_permission_request *, int, const char *));
FIELD(struct mcph_permission_request, host_data, 56, 8, void *);
FIELD(struct mcph_permission_request, description, 64, 8, const char *);
FIELD(struct mcph_permission_request, request, 72, 8, mcph_request *);

/* struct mcph_permission_decider (permission.h) */
GROWS(struct mcph_permission_decider, 24, 8);
FIELD(struct mcph_permission_decider, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_permission_decider, ask, 8, 8,
      int (*)(void *, mcph_permission_request *));
FIELD(struct mcph_permission_decider, cancel, 16, 8,
      void (*)(void *, mcph_permission_request *));

/* struct mcph_feature (feature.h) */
GROWS(struct mcph_feature, 72, 8);
FIELD(struct mcph_feature, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_feature, capabilities, 8, 8, const char *(*)(void *));
FIELD(struct mcph_feature, requests, 16, 8, const char *const *);
FIELD(struct mcph_feature, notifications, 24, 8, const char *const *);
FIELD(struct mcph_feature, on_request, 32, 8,
      int (*)(void *, mcph_server *, const char *, const char *, mcph_request *,
              mcph_error *));
FIELD(struct mcph_feature, on_notification, 40, 8,
      void (*)(void *, mcph_server *, const char *, const char *));
FIELD(struct mcph_feature, on_server, 48, 8,
      void (*)(void *, mcph_server *, int));
FIELD(struct mcph_feature, describe, 56, 8,
      const char *(*)(void *, const mcph_server *));
FIELD(struct mcph_feature, on_cancelled, 64, 8,
      void (*)(void *, mcph_server *, mcph_request *));

/* struct mcph_host_features (feature.h) */
GROWS(struct mcph_host_features, 104, 8);
FIELD(struct mcph_host_features, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_host_features, respond, 8, 8,
      int (*)(const mcph_host *, mcph_request *, const char *, mcph_error *));
FIELD(struct mcph_host_features, respond_error, 16, 8,
      int (*)(const mcph_host *, mcph_request *, int, const char *));
FIELD(struct mcph_host_features, server_name, 24, 8,
      const char *(*)(const mcph_host *, const mcph_server *));
FIELD(struct mcph_host_features, server_capabilities, 32, 8,
      const char *(*)(const mcph_host *, const mcph_server *));
FIELD(struct mcph_host_features, notify, 40, 8,
      int (*)(const mcph_host *, mcph_server *, const char *, const char *,
              mcph_error *));
FIELD(struct mcph_host_features, request, 48, 8,
      int (*)(const mcph_host *, mcph_server *, const char *, const char *,
              uint64_t, mcph_result_cb, void *, mcph_error *));
FIELD(struct mcph_host_features, option, 56, 8,
      const char *(*)(const mcph_host *, const char *));
FIELD(struct mcph_host_features, interactive, 64, 8,
      int (*)(const mcph_host *));
FIELD(struct mcph_host_features, server_info, 72, 8,
      const char *(*)(const mcph_host *, const mcph_server *));
FIELD(struct mcph_host_features, protocol_version, 80, 8,
      const char *(*)(const mcph_host *, const mcph_server *));
FIELD(struct mcph_host_features, respond_error_data, 88, 8,
      int (*)(const mcph_host *, mcph_request *, int, const char *,
              const char *, mcph_error *));
FIELD(struct mcph_host_features, in_call, 96, 8,
      int (*)(const mcph_host *, const mcph_request *));

/* struct mcph_option (feature.h) */
EXACT(struct mcph_option, 24, 8);
FIELD(struct mcph_option, name, 0, 8, const char *);
FIELD(struct mcph_option, arg, 8, 8, const char *);
FIELD(struct mcph_option, help, 16, 8, const char *);

/* struct mcph_options (feature.h) */
GROWS(struct mcph_options, 32, 8);
FIELD(struct mcph_options, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_options, options, 8, 8, const mcph_option *);
FIELD(struct mcph_options, count, 16, 8, size_t);
FIELD(struct mcph_options, option_size, 24, 8, size_t);

/* struct mcph_command (command.h) */
GROWS(struct mcph_command, 48, 8);
FIELD(struct mcph_command, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_command, name, 8, 8, const char *);
FIELD(struct mcph_command, usage, 16, 8, const char *);
FIELD(struct mcph_command, help, 24, 8, const char *);
FIELD(struct mcph_command, start, 32, 8,
      int (*)(void *, mcph_run *, int, const char *const *, int, mcph_error *));
FIELD(struct mcph_command, interrupt, 40, 8, void (*)(void *, mcph_run *));

/* struct mcph_commands (command.h) */
GROWS(struct mcph_commands, 24, 8);
FIELD(struct mcph_commands, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_commands, commands, 8, 8, const mcph_command *);
FIELD(struct mcph_commands, count, 16, 8, size_t);

/* struct mcph_host_servers (command.h) */
GROWS(struct mcph_host_servers, 56, 8);
FIELD(struct mcph_host_servers, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_host_servers, count, 8, 8, size_t (*)(const mcph_host *));
FIELD(struct mcph_host_servers, name, 16, 8,
      const char *(*)(const mcph_host *, size_t));
FIELD(struct mcph_host_servers, connect, 24, 8,
      int (*)(const mcph_host *, const char *, unsigned int, mcph_error *));
FIELD(struct mcph_host_servers, state, 32, 8,
      const char *(*)(const mcph_host *, const char *, const char **));
FIELD(struct mcph_host_servers, policy, 40, 8,
      const char *(*)(const mcph_host *, const char *));
FIELD(struct mcph_host_servers, finish, 48, 8,
      void (*)(const mcph_host *, mcph_run *, int));

/* struct mcph_auth_provider (auth.h) */
GROWS(struct mcph_auth_provider, 32, 8);
FIELD(struct mcph_auth_provider, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_auth_provider, authorization, 8, 8,
      const char *(*)(void *, const char *, const char *));
FIELD(struct mcph_auth_provider, challenge, 16, 8,
      int (*)(void *, const char *, const mcph_auth_challenge *));
FIELD(struct mcph_auth_provider, needs_auth, 24, 8,
      const char *(*)(void *, const char *, const char *));

/* struct mcph_host_auth (auth.h) */
GROWS(struct mcph_host_auth, 16, 8);
FIELD(struct mcph_host_auth, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_host_auth, set_authorization, 8, 8,
      int (*)(const mcph_host *, const char *, const char *, mcph_error *));

/* struct mcph_secret_update (secrets.h) */
GROWS(struct mcph_secret_update, 48, 8);
FIELD(struct mcph_secret_update, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_secret_update, value, 8, 8, const char *);
FIELD(struct mcph_secret_update, len, 16, 8, size_t);
FIELD(struct mcph_secret_update, new_value, 24, 8, const char *);
FIELD(struct mcph_secret_update, new_len, 32, 8, size_t);
FIELD(struct mcph_secret_update, set_aside, 40, 4, int);

/* struct mcph_host_secrets (secrets.h) */
GROWS(struct mcph_host_secrets, 40, 8);
FIELD(struct mcph_host_secrets, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_host_secrets, set, 8, 8,
      int (*)(const mcph_host *, const char *, const char *, size_t,
              mcph_error *));
FIELD(struct mcph_host_secrets, get, 16, 8,
      const char *(*)(const mcph_host *, const char *, size_t *, mcph_error *));
FIELD(struct mcph_host_secrets, remove, 24, 8,
      int (*)(const mcph_host *, const char *, mcph_error *));
FIELD(struct mcph_host_secrets, update, 32, 8,
      int (*)(const mcph_host *, const char *, unsigned int,
              mcph_secret_update_cb, void *, mcph_error *));

/* struct mcph_host_config (configuration.h) */
GROWS(struct mcph_host_config, 16, 8);
FIELD(struct mcph_host_config, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_host_config, reload, 8, 8,
      int (*)(const mcph_host *, mcph_error *));

/* struct mcph_host_ui (ui.h) */
GROWS(struct mcph_host_ui, 48, 8);
FIELD(struct mcph_host_ui, struct_size, 0, 4, uint32_t);
FIELD(struct mcph_host_ui, interactive, 8, 8, int (*)(const mcph_host *));
FIELD(struct mcph_host_ui, ask, 16, 8,
      int (*)(const mcph_host *, const char *, mcph_ui_answer_cb, void *,
              mcph_ui_ask **, mcph_error *));
FIELD(struct mcph_host_ui, cancel, 24, 8,
      void (*)(const mcph_host *, mcph_ui_ask *));
FIELD(struct mcph_host_ui, open_url, 32, 8,
      int (*)(const mcph_host *, const char *, mcph_error *));
FIELD(struct mcph_host_ui, progress, 40, 8,
      void (*)(const mcph_host *, const char *, double));

/* enum mcph_status (abi.h) */
_Static_assert(sizeof(enum mcph_status) == 4, "enum mcph_status");
VALUE(MCPH_OK, 0);
VALUE(MCPH_EINVAL, -1);
VALUE(MCPH_ENOMEM, -2);
VALUE(MCPH_EIO, -3);
VALUE(MCPH_ETIMEDOUT, -4);
VALUE(MCPH_ECLOSED, -5);
VALUE(MCPH_ENOTSUP, -6);
VALUE(MCPH_EPROTO, -7);
VALUE(MCPH_ESPAWN, -8);
VALUE(MCPH_ETOOBIG, -9);
VALUE(MCPH_ECONNREFUSED, -10);
VALUE(MCPH_EAUTH, -11);
VALUE(MCPH_ESESSION, -12);
VALUE(MCPH_ECANCELED, -13);
VALUE(MCPH_ENOTFOUND, -14);
VALUE(MCPH_EABI, -15);
VALUE(MCPH_EDENIED, -16);
VALUE(MCPH_EBUSY, -17);
VALUE(MCPH_ELOST, -18);

/* enum mcph_log_level (host.h) */
_Static_assert(sizeof(enum mcph_log_level) == 4, "enum mcph_log_level");
VALUE(MCPH_LOG_ERROR, 0);
VALUE(MCPH_LOG_WARN, 1);
VALUE(MCPH_LOG_INFO, 2);
VALUE(MCPH_LOG_DEBUG, 3);
VALUE(MCPH_LOG_TRACE, 4);

/* enum mcph_fd_event (host.h) */
_Static_assert(sizeof(enum mcph_fd_event) == 4, "enum mcph_fd_event");
VALUE(MCPH_FD_READ, 1);
VALUE(MCPH_FD_WRITE, 2);
VALUE(MCPH_FD_ERROR, 4);
VALUE(MCPH_FD_HUP, 8);

/* enum mcph_path (host.h) */
_Static_assert(sizeof(enum mcph_path) == 4, "enum mcph_path");
VALUE(MCPH_PATH_CWD, 0);
VALUE(MCPH_PATH_STATE, 1);
VALUE(MCPH_PATH_LOGS, 2);
VALUE(MCPH_PATH_CACHE, 3);

/* enum mcph_transport_flags (transport.h) */
_Static_assert(sizeof(enum mcph_transport_flags) == 4,
               "enum mcph_transport_flags");
VALUE(MCPH_TRANSPORT_LOCAL, 1);
VALUE(MCPH_TRANSPORT_REMOTE, 2);

/* enum mcph_permission_decision (permission.h) */
_Static_assert(sizeof(enum mcph_permission_decision) == 4,
               "enum mcph_permission_decision");
VALUE(MCPH_PERMISSION_ALLOW, 1);
VALUE(MCPH_PERMISSION_DENY, 2);
VALUE(MCPH_PERMISSION_ABSTAIN, 3);

/* enum mcph_server_event (feature.h) */
_Static_assert(sizeof(enum mcph_server_event) == 4, "enum mcph_server_event");
VALUE(MCPH_SERVER_CONNECTED, 1);
VALUE(MCPH_SERVER_DISCONNECTED, 2);
VALUE(MCPH_SERVER_FAILED, 3);

/* enum mcph_connect_flags (command.h) */
_Static_assert(sizeof(enum mcph_connect_flags) == 4, "enum mcph_connect_flags");
VALUE(MCPH_CONNECT_KEEP, 1);

/* enum mcph_rpc_code (rpc.h) */
_Static_assert(sizeof(enum mcph_rpc_code) == 4, "enum mcph_rpc_code");
VALUE(MCPH_RPC_PARSE_ERROR, -32700);
VALUE(MCPH_RPC_INVALID_REQUEST, -32600);
VALUE(MCPH_RPC_METHOD_NOT_FOUND, -32601);
VALUE(MCPH_RPC_INVALID_PARAMS, -32602);
VALUE(MCPH_RPC_INTERNAL_ERROR, -32603);
VALUE(MCPH_RPC_RESOURCE_NOT_FOUND, -32002);
VALUE(MCPH_RPC_URL_ELICITATION_REQUIRED, -32042);
VALUE(MCPH_RPC_HEADER_MISMATCH, -32020);
VALUE(MCPH_RPC_MISSING_CLIENT_CAPABILITY, -32021);
VALUE(MCPH_RPC_UNSUPPORTED_PROTOCOL_VERSION, -32022);

/* enum mcph_secret_flags (secrets.h) */
_Static_assert(sizeof(enum mcph_secret_flags) == 4, "enum mcph_secret_flags");
VALUE(MCPH_SECRET_SHARED, 1);
VALUE(MCPH_SECRET_PEEK, 2);

/* Constants */
VALUE(MCPH_ABI_MAJOR, 1);
AT_LEAST(MCPH_ABI_MINOR, 8);
VALUE(MCPH_ERROR_MESSAGE_MAX, 512);
VALUE(MCPH_SECRET_MAX, 65536);
VALUE(MCPH_SECRET_UPDATE_MAX, 4194304);

/* The ids: a published id never changes. */
static const struct {
  const char *name, *have, *want;
} ids[] = {
    {"MCPH_ENTRY_SYMBOL", MCPH_ENTRY_SYMBOL, "mcph_plugin_entry"},
    {"MCPH_EXT_AUTH", MCPH_EXT_AUTH, "mcph.auth/1"},
    {"MCPH_EXT_COMMAND", MCPH_EXT_COMMAND, "mcph.command/1"},
    {"MCPH_EXT_FEATURE", MCPH_EXT_FEATURE, "mcph.feature/1"},
    {"MCPH_EXT_OPTIONS", MCPH_EXT_OPTIONS, "mcph.options/1"},
    {"MCPH_EXT_PERMISSION", MCPH_EXT_PERMISSION, "mcph.permission/1"},
    {"MCPH_EXT_SERVER_SOURCE", MCPH_EXT_SERVER_SOURCE, "mcph.server-source/1"},
    {"MCPH_EXT_TRANSPORT", MCPH_EXT_TRANSPORT, "mcph.transport/1"},
    {"MCPH_SERVICE_AUTH", MCPH_SERVICE_AUTH, "mcph.host.auth/1"},
    {"MCPH_SERVICE_CONFIG", MCPH_SERVICE_CONFIG, "mcph.host.config/1"},
    {"MCPH_SERVICE_FEATURES", MCPH_SERVICE_FEATURES, "mcph.host.features/1"},
    {"MCPH_SERVICE_SECRETS", MCPH_SERVICE_SECRETS, "mcph.host.secrets/1"},
    {"MCPH_SERVICE_SERVERS", MCPH_SERVICE_SERVERS, "mcph.host.servers/1"},
    {"MCPH_SERVICE_TRANSPORTS", MCPH_SERVICE_TRANSPORTS,
     "mcph.host.transports/1"},
    {"MCPH_SERVICE_UI", MCPH_SERVICE_UI, "mcph.host.ui/1"},
};

int main(void) {
  int bad = 0;
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
    if (strcmp(ids[i].have, ids[i].want) != 0) {
      printf("FAIL %s is \"%s\", frozen as \"%s\"\n", ids[i].name, ids[i].have,
             ids[i].want);
      bad = 1;
    }
  }
  printf("%zu ids as frozen%s\n", sizeof ids / sizeof ids[0],
         bad ? ": NO" : "");
  return bad;
}
