import CoursebookCLI
import Foundation

exit(Coursebook.run(Array(CommandLine.arguments.dropFirst()), console: StandardConsole()))
