import CoursebookCLI
import Foundation

exit(Coursebook.main(Array(CommandLine.arguments.dropFirst()), console: StandardConsole()))
