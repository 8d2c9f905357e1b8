/// A name (a file's, a path inside the course) compared byte for byte. Swift's `==` on
/// strings is canonical equivalence: `café` written with `é` (U+00E9) and with `e` and a
/// combining accent (U+0301) are equal, so a `Set` or a `Dictionary` keyed by `String` takes
/// two files for one, although the file system (and git) keeps them apart. Keys that stand for
/// files are `ExactName`s.
package struct ExactName: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    package let text: String

    package init(_ text: String) { self.text = text }

    package init(stringLiteral text: String) { self.text = text }

    package var description: String { text }

    package func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    package static func == (lhs: ExactName, rhs: ExactName) -> Bool {
        sameBytes(Substring(lhs.text), Substring(rhs.text))
    }
}

/// The first two of `names` that Swift's `==` takes for one though their bytes differ (equal
/// under Unicode normalization), in the order given; nil when there are none.
package func namesEqualUnderNormalization(_ names: [String]) -> (first: String, second: String)? {
    var seen: [String: String] = [:]
    for name in names {
        if let earlier = seen[name] {
            if !sameBytes(Substring(earlier), Substring(name)) { return (earlier, name) }
        } else {
            seen[name] = name
        }
    }
    return nil
}

/// A name with every scalar outside printable ASCII written as `<U+XXXX>`: two names that
/// print alike (`01-café.md` composed and decomposed) shown apart.
package func spelledOut(_ name: String) -> String {
    var shown = ""
    for scalar in name.unicodeScalars {
        if scalar.isASCII, scalar.value >= 0x20, scalar.value < 0x7F {
            shown.unicodeScalars.append(scalar)
        } else {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            shown += "<U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex)>"
        }
    }
    return shown
}
