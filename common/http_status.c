/* HTTP reason phrases (http_status.h), RFC 9110's. */
#include "http_status.h"

#include <mcphost/abi.h>

const char *http_status_reason(long status) {
  switch (status) {
  case 200: return "OK";
  case 202: return "Accepted";
  case 204: return "No Content";
  case 301: return "Moved Permanently";
  case 302: return "Found";
  case 303: return "See Other";
  case 307: return "Temporary Redirect";
  case 308: return "Permanent Redirect";
  case 400: return "Bad Request";
  case 401: return "Unauthorized";
  case 403: return "Forbidden";
  case 404: return "Not Found";
  case 405: return "Method Not Allowed";
  case 406: return "Not Acceptable";
  case 408: return "Request Timeout";
  case 409: return "Conflict";
  case 410: return "Gone";
  case 411: return "Length Required";
  case 413: return "Content Too Large";
  case 415: return "Unsupported Media Type";
  case 421: return "Misdirected Request";
  case 422: return "Unprocessable Content";
  case 429: return "Too Many Requests";
  case 431: return "Request Header Fields Too Large";
  case 500: return "Internal Server Error";
  case 501: return "Not Implemented";
  case 502: return "Bad Gateway";
  case 503: return "Service Unavailable";
  case 504: return "Gateway Timeout";
  default: return "";
  }
}

int http_status_error(long status) {
  if (status == 401 || status == 403) {
    return MCPH_EAUTH;
  }
  if (status >= 500) {
    return MCPH_EIO;
  }
  return MCPH_EPROTO;
}

bool http_status_is_auth(long status) {
  return http_status_error(status) == MCPH_EAUTH;
}
