import Foundation

/// What a path names, to tell a file or directory named twice (`rules rules/`, a link, `x/../rules`): the file itself
/// (device and inode) however it is spelt, or for a path that cannot be read, its absolute spelling without `.` and
/// `..` parts and a trailing slash.
enum FileIdentity {
    static func of(_ path: String) -> String {
        var info = stat()
        if stat(path, &info) == 0 { return "\(info.st_dev):\(info.st_ino)" }
        return "unread:" + URL(fileURLWithPath: path).standardized.path
    }
}
