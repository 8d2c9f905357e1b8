#include <microhttpd.h>

// libmicrohttpd's functions that take their options as C variadic arguments, which Swift cannot
// pass, wrapped with typed parameters for `coursebook serve` (Sources/PreviewServer).

/// A daemon on the listening socket `listen_fd`: one thread per connection, each waiting with
/// poll() (no FD_SETSIZE limit), idle connections closed after `timeout` seconds, at most `limit`
/// connections at once (more wait in the kernel's backlog), and the application told when a
/// connection starts and ends and when a request is done.
static inline struct MHD_Daemon *coursebook_start_daemon(
    int listen_fd, unsigned int timeout, unsigned int limit,
    MHD_AccessHandlerCallback answer, MHD_NotifyConnectionCallback notify,
    MHD_RequestCompletedCallback completed, void *context) {
    return MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL, 0,
        NULL, NULL, answer, context,
        MHD_OPTION_LISTEN_SOCKET, (MHD_socket) listen_fd,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout,
        MHD_OPTION_CONNECTION_LIMIT, limit,
        MHD_OPTION_NOTIFY_CONNECTION, notify, context,
        MHD_OPTION_NOTIFY_COMPLETED, completed, context,
        MHD_OPTION_END);
}

/// The socket of a connection, or -1.
static inline int coursebook_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int) info->connect_fd;
}

/// A connection's own idle timeout, in seconds (0: none).
static inline enum MHD_Result coursebook_connection_timeout(struct MHD_Connection *connection,
                                                            unsigned int seconds) {
    return MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}
