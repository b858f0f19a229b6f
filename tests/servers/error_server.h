/* The `data` of error_server.c's errors, as it writes them and as a
 * client that keeps every token passes them on (without the whitespace
 * between tokens): a number no double holds, an exponent and trailing
 * zeros kept as written, U+0000, UTF-8. */
#ifndef MCPHOST_TEST_ERROR_SERVER_H
#define MCPHOST_TEST_ERROR_SERVER_H

#define ERROR_SERVER_DATA                                                      \
  "{\"why\": \"a field\", \"big\": 12345678901234567890, \"exp\": 1.5E+3, "    \
  "\"nul\": \"a\\u0000b\", \"text\": \"\xc3\xa9 \xf0\x9f\x98\x80\", "          \
  "\"list\": [1, 2.50, -0.0]}"
#define ERROR_SERVER_DATA_MIN                                                  \
  "{\"why\":\"a field\",\"big\":12345678901234567890,\"exp\":1.5E+3,"          \
  "\"nul\":\"a\\u0000b\",\"text\":\"\xc3\xa9 \xf0\x9f\x98\x80\","              \
  "\"list\":[1,2.50,-0.0]}"

#define ERROR_SERVER_ELICIT                                                    \
  "{\"elicitations\": [{\"mode\": \"url\", \"elicitationId\": \"el-1\", "      \
  "\"url\": \"https://example.com/sign-in?state=a%20b\", \"message\": "        \
  "\"Sign in to continue\"}]}"
#define ERROR_SERVER_ELICIT_MIN                                                \
  "{\"elicitations\":[{\"mode\":\"url\",\"elicitationId\":\"el-1\","           \
  "\"url\":\"https://example.com/sign-in?state=a%20b\",\"message\":"           \
  "\"Sign in to continue\"}]}"

#endif
