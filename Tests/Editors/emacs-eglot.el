;;; Emacs (Debian 12's 28.2 with elpa-eglot and elpa-markdown-mode) as the client of
;;; `coursebook lsp`, in batch, with the README's setup: the findings through Flymake, the
;;; first code action applied as eglot applies it, the findings after. Not part of `make test`
;;; (Emacs is not among its packages); run by hand on a copy of the editor fixture:
;;;   cp -r Tests/Fixtures/editor /tmp/em-editor
;;;   LESSON=/tmp/em-editor/01-output.md PATH=$PWD/.build/debug:$PATH emacs --batch -l Tests/Editors/emacs-eglot.el
(package-initialize)
(require 'eglot)
(add-to-list 'eglot-server-programs '(markdown-mode . ("coursebook" "lsp")))
(add-hook 'markdown-mode-hook #'eglot-ensure)

(find-file (getenv "LESSON"))
(run-hooks 'post-command-hook)
(let ((tries 0))
  (while (and (< tries 600) (null (flymake-diagnostics)))
    (accept-process-output nil 0.1)
    (run-hooks 'post-command-hook)
    (setq tries (1+ tries))))
(dolist (d (flymake-diagnostics))
  (princ (format "line %d: %s\n" (line-number-at-pos (flymake-diagnostic-beg d)) (flymake-diagnostic-text d))))
;; The quick fix at the first finding, applied as eglot applies it.
(goto-char (flymake-diagnostic-beg (car (flymake-diagnostics))))
(let* ((actions (jsonrpc-request (eglot--current-server-or-lose) :textDocument/codeAction
                                 (list :textDocument (eglot--TextDocumentIdentifier)
                                       :range (list :start (eglot--pos-to-lsp-position (point))
                                                    :end (eglot--pos-to-lsp-position (point)))
                                       :context (list :diagnostics []))))
       (action (aref actions 0)))
  (princ (format "action: %s\n" (plist-get action :title)))
  (eglot--apply-workspace-edit (plist-get action :edit)))
(princ (format "line 13 now: %s\n" (save-excursion (goto-char (point-min)) (forward-line 12) (buffer-substring (line-beginning-position) (line-end-position)))))
(let ((tries 0))
  (while (and (< tries 600) (/= 1 (length (flymake-diagnostics))))
    ;; Batch Emacs runs no idle timers, which is how eglot sends a change: send it now.
    (eglot--signal-textDocument/didChange)
    (accept-process-output nil 0.1)
    (run-hooks 'post-command-hook)
    (setq tries (1+ tries))))
(princ (format "after: %d finding(s)\n" (length (flymake-diagnostics))))
(let ((process (jsonrpc--process (eglot--current-server-or-lose))))
  (eglot-shutdown (eglot--current-server-or-lose))
  (princ (format "server ended: %s, status %s\n" (process-status process) (process-exit-status process))))
