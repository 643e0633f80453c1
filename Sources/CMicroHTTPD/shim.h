#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <stdarg.h>
#include <stdint.h>
#include <microhttpd.h>

// MHD_get_connection_info is variadic, which Swift cannot call: these read the two fields
// navlogd needs.

/// The descriptor of the connection's socket, or -1.
static inline int navlog_mhd_connection_descriptor(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int)info->connect_fd;
}

/// What the application attached to the connection's socket when it opened
/// (MHD_OPTION_NOTIFY_CONNECTION), or NULL.
static inline void *navlog_mhd_connection_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}
