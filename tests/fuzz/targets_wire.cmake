# Fuzz targets for what comes over a transport: framing, the id and batch
# scanners, the raw JSON path, SSE, WebSocket message assembly, and the
# text rules applied to what a server says (sanitizer, escaping, channel
# formatting).
set(SRC ${CMAKE_SOURCE_DIR})

mcph_fuzz_target(framing SOURCES fuzz_framing.c
                 ${SRC}/transports/stdio/framing.c
                 INCLUDES ${SRC}/transports/stdio)
mcph_fuzz_target(rpc_peek SOURCES fuzz_rpc_peek.c
                 ${SRC}/transports/http/rpc_peek.c ${SRC}/host/mcp/rpc_scan.c
                 INCLUDES ${SRC}/transports/http ${SRC}/host
                 LIBS PkgConfig::CJSON DICT ${MCPH_FUZZ_DIR}/json.dict)
mcph_fuzz_target(json_raw SOURCES fuzz_json_raw.c
                 ${SRC}/host/safety/json_raw.c ${SRC}/host/safety/json_write.c
                 INCLUDES ${SRC}/host LIBS mcphost PkgConfig::CJSON
                 DICT ${MCPH_FUZZ_DIR}/json.dict)
mcph_fuzz_target(sse SOURCES fuzz_sse.c ${SRC}/transports/common/sse.c
                 INCLUDES ${SRC}/transports/common
                 DICT ${MCPH_FUZZ_DIR}/sse.dict)
mcph_fuzz_target(ws_rx SOURCES fuzz_ws_rx.c ${SRC}/transports/ws/ws_rx.c
                 INCLUDES ${SRC}/transports/ws)
