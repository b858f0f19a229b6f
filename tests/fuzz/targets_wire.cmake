# Fuzz targets for what comes over a transport: framing, the id and batch
# scanners, the raw JSON path, SSE, WebSocket frames and message assembly,
# and the text rules applied to what a server says (sanitizer, escaping,
# channel formatting).
set(SRC ${CMAKE_SOURCE_DIR})

mcph_fuzz_target(framing SOURCES fuzz_framing.c
                 ${SRC}/transports/stdio/framing.c
                 INCLUDES ${SRC}/transports/stdio)
mcph_fuzz_target(rpc_peek SOURCES fuzz_rpc_peek.c
                 ${SRC}/transports/http/rpc_peek.c ${SRC}/host/mcp/rpc_scan.c
                 INCLUDES ${SRC}/transports/http ${SRC}/host
                 LIBS PkgConfig::CJSON DICT ${MCPH_FUZZ_DIR}/json.dict)
mcph_fuzz_target(json_raw SOURCES fuzz_json_raw.c
                 ${SRC}/common/json_raw.c ${SRC}/common/json_write.c
                 ${SRC}/common/json_parse.c
                 INCLUDES ${SRC}/host LIBS mcphost PkgConfig::CJSON
                 DICT ${MCPH_FUZZ_DIR}/json.dict)
mcph_fuzz_target(json_parse SOURCES fuzz_json_parse.c
                 ${SRC}/common/json_parse.c ${SRC}/common/json_write.c
                 INCLUDES ${SRC}/host LIBS mcphost PkgConfig::CJSON
                 CORPUS ${MCPH_FUZZ_DIR}/corpus/json_raw
                 DICT ${MCPH_FUZZ_DIR}/json.dict)
mcph_fuzz_target(sse SOURCES fuzz_sse.c ${SRC}/transports/common/sse.c
                 INCLUDES ${SRC}/transports/common
                 DICT ${MCPH_FUZZ_DIR}/sse.dict)
mcph_fuzz_target(ws_rx SOURCES fuzz_ws_rx.c ${SRC}/transports/ws/ws_rx.c
                 INCLUDES ${SRC}/transports/ws)
mcph_fuzz_target(ws_frames SOURCES fuzz_ws_frames.c
                 ${SRC}/transports/ws/ws_frame.c
                 INCLUDES ${SRC}/transports/ws)
# The sanitizer with what it needs from the host, which is no ICU; ICU is
# linked for the target's own checks (its NFKC and categories, the
# reference). The Unicode tables' code is compiled in too (instrumented);
# mcphost_unicode_quick gives its generated header, made first.
set(MCPH_FUZZ_SANITIZE_SRC ${SRC}/host/safety/sanitize.c
    ${SRC}/host/safety/unicode_quick.c
    ${SRC}/common/size_limits.c ${SRC}/common/display_width.c
    ${SRC}/common/util.c ${SRC}/common/strbuf.c ${SRC}/common/alloc.c
    ${SRC}/common/text_escape.c ${SRC}/common/utf8.c)
mcph_fuzz_target(sanitize SOURCES fuzz_sanitize.c ${MCPH_FUZZ_SANITIZE_SRC}
                 INCLUDES ${SRC}/host ${SRC}/common
                 LIBS PkgConfig::CJSON PkgConfig::ICU mcphost_unicode_quick
                 ${CMAKE_DL_LIBS} pthread
                 DICT ${MCPH_FUZZ_DIR}/json.dict)
mcph_fuzz_target(text_escape SOURCES fuzz_text_escape.c
                 ${SRC}/common/text_escape.c ${SRC}/common/utf8.c
                 INCLUDES ${SRC}/common LIBS PkgConfig::CJSON)
mcph_fuzz_target(channel_format SOURCES fuzz_channel_format.c
                 ${SRC}/plugins/channels/format.c
                 INCLUDES ${SRC}/plugins/channels
                 LIBS PkgConfig::CJSON mcphost_strbuf
                 DICT ${MCPH_FUZZ_DIR}/json.dict)
# The JSON-RPC engine's receive path: messages, ids, responses to pending
# requests, the peer's requests and their answers, batches.
# The units are compiled in (instrumented); libmcphost gives the rest.
mcph_fuzz_target(rpc_receive SOURCES fuzz_rpc_receive.c
                 ${SRC}/host/mcp/jsonrpc.c ${SRC}/host/mcp/rpc_scan.c
                 ${SRC}/common/json_parse.c
                 ${SRC}/common/json_raw.c
                 INCLUDES ${SRC}/host LIBS mcphost PkgConfig::CJSON
                 DICT ${MCPH_FUZZ_DIR}/json.dict)
# A server's requests to the client: elicitation/create's schema and the
# answers checked against it (plugins/elicitation/schema.c, value.c), and
# sampling/createMessage made into the hook's input, the hook's answer
# checked (plugins/sampling/answer.c).
set(ELICIT_DIR ${SRC}/plugins/elicitation)
mcph_fuzz_target(elicitation SOURCES fuzz_elicitation.c
                 ${ELICIT_DIR}/schema.c ${ELICIT_DIR}/value.c
                 ${SRC}/tests/unit/elicit_fakes.c
                 INCLUDES ${ELICIT_DIR}
                 LIBS mcphost_sdk PkgConfig::CJSON mcphost_alloc m
                 DICT ${MCPH_FUZZ_DIR}/json.dict)
# The rest of elicitation/create: its members (request.c) and, in URL
# mode, the URL check (url.c, libcurl's URL parser opened as it is there).
mcph_fuzz_target(elicitation_request SOURCES fuzz_elicitation_request.c
                 ${ELICIT_DIR}/request.c ${ELICIT_DIR}/schema.c
                 ${ELICIT_DIR}/value.c ${ELICIT_DIR}/text.c
                 ${ELICIT_DIR}/url.c ${SRC}/tests/unit/elicit_fakes.c
                 INCLUDES ${ELICIT_DIR} ${CURL_INCLUDE_DIRS}
                 LIBS mcphost_sdk PkgConfig::CJSON mcphost_icu_dl mcphost_text
                      mcphost_alloc mcphost_proc mcphost_hook
                      ${CMAKE_DL_LIBS} m
                 DICT ${MCPH_FUZZ_DIR}/json.dict)
mcph_fuzz_target(sampling SOURCES fuzz_sampling.c
                 ${SRC}/plugins/sampling/answer.c
                 INCLUDES ${SRC}/plugins/sampling
                 LIBS PkgConfig::CJSON
                 DICT ${MCPH_FUZZ_DIR}/json.dict)
# The session socket's messages (cli/daemon/daemon_wire.c) over a real
# socketpair: the unit compiled in, libmcphost gives the rest.
mcph_fuzz_target(session_wire SOURCES fuzz_session_wire.c
                 ${SRC}/cli/daemon/daemon_wire.c
                 INCLUDES ${SRC} ${SRC}/host ${SRC}/common LIBS mcphost)
# The gateway's request heads and their framing (gateway/serve_http.c,
# gw_http_frame).
mcph_fuzz_target(serve_http_head SOURCES fuzz_serve_http_head.c
                 ${SRC}/gateway/serve_http_head.c
                 INCLUDES ${SRC} ${SRC}/host ${SRC}/common LIBS mcphost
                 DICT ${MCPH_FUZZ_DIR}/http_head.dict)
