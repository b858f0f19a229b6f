# Fuzz targets for the bundle plugin's parsers: the signature trailer and
# the manifest loader; their seeds are the bundle fixtures.
set(MCPB_DIR ${CMAKE_SOURCE_DIR}/bundles)
set(MCPB_FIX ${CMAKE_SOURCE_DIR}/bundles/testdata)

mcph_fuzz_target(trailer SOURCES fuzz_trailer.c ${MCPB_DIR}/trailer.c
                 INCLUDES ${MCPB_DIR}
                 CORPUS ${MCPB_FIX} ${MCPB_FIX}/malicious)
mcph_fuzz_target(manifest SOURCES fuzz_manifest.c ${MCPB_DIR}/manifest.c
                 INCLUDES ${MCPB_DIR} LIBS PkgConfig::CJSON
                 CORPUS ${MCPB_FIX}/invalid-manifests
                        ${MCPB_FIX}/src/hello-bin/manifest.json
                        ${MCPB_FIX}/src/hello-node/manifest.json
                        ${MCPB_FIX}/src/hello-uv/manifest.json)

# The archive entry checks (names, and whole archives extracted into a
# scratch directory: fewer runs, each writes files).
pkg_check_modules(FUZZ_LIBARCHIVE REQUIRED IMPORTED_TARGET libarchive)
mcph_fuzz_target(extract
                 SOURCES fuzz_extract.c scratch.c ${MCPB_DIR}/extract.c
                         ${MCPB_DIR}/entry_names.c ${MCPB_DIR}/source.c
                 INCLUDES ${MCPB_DIR}
                 LIBS PkgConfig::FUZZ_LIBARCHIVE PkgConfig::ICU
                 RUNS 3000)

# The config files: the loader and its scopes, ${VAR} expansion, the
# settings writer's round trip, the TOML reader of imports. The units are
# compiled in (instrumented); libmcphost gives the rest.
set(CONFIG_DIR ${CMAKE_SOURCE_DIR}/host/config)
set(IMPORT_FIX ${CMAKE_SOURCE_DIR}/tests/fixtures/import)
mcph_fuzz_target(config
                 SOURCES fuzz_config.c scratch.c ${CONFIG_DIR}/config.c
                         ${CONFIG_DIR}/config_scopes.c
                         ${CONFIG_DIR}/config_policy.c
                         ${CONFIG_DIR}/config_expand.c
                         ${CONFIG_DIR}/permissions.c
                 LIBS mcphost
                 CORPUS ${CMAKE_SOURCE_DIR}/examples/demo.mcp.json
                 RUNS 5000)
mcph_fuzz_target(expand SOURCES fuzz_expand.c ${CONFIG_DIR}/config_expand.c
                 LIBS mcphost)
mcph_fuzz_target(config_write
                 SOURCES fuzz_config_write.c scratch.c ${CONFIG_DIR}/config.c
                         ${CONFIG_DIR}/config_write.c
                 LIBS mcphost
                 RUNS 3000)
mcph_fuzz_target(toml SOURCES fuzz_toml.c ${CMAKE_SOURCE_DIR}/host/config/toml.c
                 INCLUDES ${CMAKE_SOURCE_DIR} LIBS mcphost
                 CORPUS ${IMPORT_FIX}/codex-config.toml)

# The WWW-Authenticate parser of the HTTP transports.
mcph_fuzz_target(www_auth
                 SOURCES fuzz_www_auth.c
                         ${CMAKE_SOURCE_DIR}/transports/common/www_auth.c
                 INCLUDES ${CMAKE_SOURCE_DIR}/transports/common
                 LIBS mcphost_sdk)

# The OAuth documents: the protected resource and authorization server
# metadata, and the token response (plugins/oauth/meta.c).
find_package(CURL REQUIRED)
set(OAUTH_DIR ${CMAKE_SOURCE_DIR}/plugins/oauth)
foreach(t oauth_meta oauth_token)
  mcph_fuzz_target(${t}
                   SOURCES fuzz_${t}.c ${OAUTH_DIR}/meta.c ${OAUTH_DIR}/util.c
                           ${OAUTH_DIR}/net.c
                   INCLUDES ${OAUTH_DIR}
                   LIBS PkgConfig::CJSON CURL::libcurl mcphost_sdk mcphost_strbuf)
endforeach()

# Cross-app access's login at the identity provider (plugins/oauth/idp.c):
# the OpenID Connect discovery document and the ID token's times.
mcph_fuzz_target(oauth_idp
                 SOURCES fuzz_oauth_idp.c ${OAUTH_DIR}/meta.c ${OAUTH_DIR}/util.c
                         ${OAUTH_DIR}/net.c ${OAUTH_DIR}/crypto.c
                 INCLUDES ${OAUTH_DIR}
                 LIBS PkgConfig::CJSON CURL::libcurl PkgConfig::CRYPTO
                      mcphost_sdk mcphost_strbuf
                 DICT ${MCPH_FUZZ_DIR}/json.dict)

# The claude.ai connectors: the listing's answer and Claude Code's
# credentials file (plugins/claudeai/listing.c, creds.c).
set(CLAUDEAI_DIR ${CMAKE_SOURCE_DIR}/plugins/claudeai)
mcph_fuzz_target(claudeai
                 SOURCES fuzz_claudeai.c ${CLAUDEAI_DIR}/listing.c
                         ${CLAUDEAI_DIR}/creds.c ${CLAUDEAI_DIR}/curl_dl.c
                 INCLUDES ${CLAUDEAI_DIR} ${CURL_INCLUDE_DIRS}
                 LIBS PkgConfig::CJSON mcphost_mcp_name mcphost_trusted_fs
                      ${CMAKE_DL_LIBS}
                 DICT ${MCPH_FUZZ_DIR}/json.dict)
# An IDE's lockfile (plugins/ide/lockfile.c), read from a scratch
# directory.
set(IDE_DIR ${CMAKE_SOURCE_DIR}/plugins/ide)
mcph_fuzz_target(ide_lockfile
                 SOURCES fuzz_ide_lockfile.c scratch.c ${IDE_DIR}/lockfile.c
                         ${IDE_DIR}/ide_util.c
                 INCLUDES ${IDE_DIR}
                 LIBS PkgConfig::CJSON mcphost_text mcphost_trusted_fs
                      mcphost_alloc mcphost_strbuf m
                 DICT ${MCPH_FUZZ_DIR}/ide_lockfile.dict)
