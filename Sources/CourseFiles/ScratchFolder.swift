import Foundation

/// A new folder of this process's own (`mkdtemp`: mode 0700), named `prefix` and six
/// characters no other folder beside it has; nil when it cannot be made.
package func makeScratchFolder(prefix: String) -> String? {
    var template = Array((prefix + "XXXXXX").utf8CString)
    guard mkdtemp(&template) != nil else { return nil }
    return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
