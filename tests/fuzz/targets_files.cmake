# Fuzz targets for the bundle plugin's parsers: the signature trailer and
# the manifest loader; their seeds are the bundle fixtures.
set(MCPB_DIR ${CMAKE_SOURCE_DIR}/plugins/mcpb)
set(MCPB_FIX ${CMAKE_SOURCE_DIR}/tests/fixtures/mcpb)

mcph_fuzz_target(trailer SOURCES fuzz_trailer.c ${MCPB_DIR}/trailer.c
                 INCLUDES ${MCPB_DIR}
                 CORPUS ${MCPB_FIX} ${MCPB_FIX}/malicious)
mcph_fuzz_target(manifest SOURCES fuzz_manifest.c ${MCPB_DIR}/manifest.c
                 INCLUDES ${MCPB_DIR} LIBS PkgConfig::CJSON
                 CORPUS ${MCPB_FIX}/invalid-manifests
                        ${MCPB_FIX}/src/hello-bin/manifest.json
                        ${MCPB_FIX}/src/hello-node/manifest.json
                        ${MCPB_FIX}/src/hello-uv/manifest.json)
