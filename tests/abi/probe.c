/* The probe abidiff compares (tests/abi/README.md): a shared object
 * whose exported functions take every public type of the plugin SDK, so
 * that its debug information describes each struct, enum, callback type
 * and opaque handle as the headers it was compiled from define them.
 * Built with -g from sdk/include for the test, from a frozen or a
 * deliberately broken copy when the test says so. A type added in a
 * later minor gets its function here when that minor is frozen. */
#include <mcphost/mcphost.h>

#define PROBE(name, type)                                                      \
  MCPH_EXPORT void probe_##name(type v);                                       \
  MCPH_EXPORT void probe_##name(type v) {                                      \
    (void)v;                                                                   \
  }

/* The structs, by pointer (as they cross the boundary). */
PROBE(mcph_error, const mcph_error *)
PROBE(mcph_host, const mcph_host *)
PROBE(mcph_auth_challenge, const mcph_auth_challenge *)
PROBE(mcph_transport_type_info, const mcph_transport_type_info *)
PROBE(mcph_transport_events, const mcph_transport_events *)
PROBE(mcph_transport_params, const mcph_transport_params *)
PROBE(mcph_transport_factory, const mcph_transport_factory *)
PROBE(mcph_host_transports, const mcph_host_transports *)
PROBE(mcph_provides, const mcph_provides *)
PROBE(mcph_entry, const mcph_entry *)
PROBE(mcph_server_source, const mcph_server_source *)
PROBE(mcph_permission_request, const mcph_permission_request *)
PROBE(mcph_permission_decider, const mcph_permission_decider *)
PROBE(mcph_feature, const mcph_feature *)
PROBE(mcph_host_features, const mcph_host_features *)
PROBE(mcph_option, const mcph_option *)
PROBE(mcph_options, const mcph_options *)
PROBE(mcph_command, const mcph_command *)
PROBE(mcph_commands, const mcph_commands *)
PROBE(mcph_host_servers, const mcph_host_servers *)
PROBE(mcph_auth_provider, const mcph_auth_provider *)
PROBE(mcph_host_auth, const mcph_host_auth *)
PROBE(mcph_secret_update, const mcph_secret_update *)
PROBE(mcph_host_secrets, const mcph_host_secrets *)
PROBE(mcph_host_config, const mcph_host_config *)
PROBE(mcph_host_ui, const mcph_host_ui *)

/* The enums, by value. */
PROBE(mcph_status, enum mcph_status)
PROBE(mcph_log_level, enum mcph_log_level)
PROBE(mcph_fd_event, enum mcph_fd_event)
PROBE(mcph_path, enum mcph_path)
PROBE(mcph_transport_flags, enum mcph_transport_flags)
PROBE(mcph_permission_decision, enum mcph_permission_decision)
PROBE(mcph_server_event, enum mcph_server_event)
PROBE(mcph_connect_flags, enum mcph_connect_flags)
PROBE(mcph_rpc_code, enum mcph_rpc_code)
PROBE(mcph_secret_flags, enum mcph_secret_flags)

/* The callback types. */
PROBE(mcph_fd_cb, mcph_fd_cb)
PROBE(mcph_timer_cb, mcph_timer_cb)
PROBE(mcph_post_cb, mcph_post_cb)
PROBE(mcph_server_source_emit_fn, mcph_server_source_emit_fn)
PROBE(mcph_result_cb, mcph_result_cb)
PROBE(mcph_secret_update_cb, mcph_secret_update_cb)
PROBE(mcph_ui_answer_cb, mcph_ui_answer_cb)

/* The opaque handles. */
PROBE(mcph_request, mcph_request *)
PROBE(mcph_run, mcph_run *)
PROBE(mcph_server, mcph_server *)
PROBE(mcph_timer, mcph_timer *)
PROBE(mcph_transport, mcph_transport *)
PROBE(mcph_ui_ask, mcph_ui_ask *)
PROBE(mcph_watch, mcph_watch *)
