#ifndef BELAY_HTTP_SHIM_H
#define BELAY_HTTP_SHIM_H
/* libmicrohttpd calls Swift cannot make (variadic MHD_start_daemon, MHD_get_daemon_info). */
#endif
