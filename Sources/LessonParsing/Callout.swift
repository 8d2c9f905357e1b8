/// The kinds of a callout: a quote set apart as a note of the author's. GitHub writes one as a
/// quote whose first line is `[!NOTE]` (five kinds); DocC as a quote whose first paragraph
/// starts with `Note:` (its asides, `Aside.Kind` of swift-markdown: the five, less `caution`,
/// and nineteen more). Every kind is titled in the course's language.
package enum CalloutKind: String, Sendable, CaseIterable {
    // GitHub's five (`caution` is GitHub's alone).
    case note, tip, important, warning, caution
    // DocC's other asides.
    case experiment, attention, author, authors, bug, complexity, copyright, date, invariant
    case mutatingVariant, nonMutatingVariant, postcondition, precondition, remark, requires
    case since, toDo, version, `throws`, seeAlso

    /// The kinds GitHub renders; `[!KIND]` names one of these.
    package static let gitHub: [CalloutKind] = [.note, .tip, .important, .warning, .caution]

    /// The kind's word in GitHub's marker (`NOTE`); any case is accepted.
    package var marker: String { rawValue.uppercased() }

    /// The look of the kind on the page, as DocC gives it: GitHub's kinds their own, an
    /// experiment a tip's (DocC's own style for it reads as an invitation to try), every other
    /// aside a note's.
    package var style: CalloutKind {
        switch self {
        case .note, .tip, .important, .warning, .caution: self
        case .experiment: .tip
        default: .note
        }
    }

    /// GitHub's `[!KIND]`: one of its five kinds, any case.
    init?(marker: String) {
        guard let kind = CalloutKind(rawValue: marker.lowercased()), CalloutKind.gitHub.contains(kind) else { return nil }
        self = kind
    }

    /// DocC's `Kind:` tag: any case, spaces and hyphens aside (`See Also`, `seealso` and
    /// `SeeAlso` are one kind, as `To Do` and `ToDo` are); GitHub's `Caution` too.
    init?(asideTag tag: some StringProtocol) {
        let key = tag.lowercased().filter { $0 != " " && $0 != "-" }
        guard let kind = CalloutKind.allCases.first(where: { $0.rawValue.lowercased() == key }) else { return nil }
        self = kind
    }
}

/// A quote that is a callout: its kind, and for a DocC aside whose tag is not a kind DocC
/// knows (`> Deprecated:` on a line of its own), the tag as its title.
package struct Callout: Sendable, Equatable {
    package var kind: CalloutKind
    /// The title the author wrote, shown instead of the kind's word.
    package var title: String?

    package init(kind: CalloutKind, title: String? = nil) {
        self.kind = kind
        self.title = title
    }

    /// DocC's title for an aside tag it does not know: as written when it holds a capital
    /// letter, else capitalized (`deprecated` is `Deprecated`).
    static func title(ofUnknownTag tag: String) -> String {
        tag.contains(where: \.isUppercase) ? tag : tag.capitalized
    }
}
