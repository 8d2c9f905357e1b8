-- Neovim (Debian 12's 0.7.2) as the client of `coursebook lsp`, headless:
--   COURSEBOOK=.build/debug/coursebook LESSON=course/01-output.md RESULT=out.json \
--     nvim --headless -u NONE -i NONE -n -c 'luafile Tests/Editors/neovim.lua'
-- It opens the lesson, starts the server through Neovim's own client (start_client and
-- buf_attach_client, the 0.7 interface), waits for the diagnostics, asks for the code action
-- at the first one, applies its edit as Neovim applies edits, waits for the next diagnostics,
-- and writes what it saw to RESULT as JSON. Then it quits.
local result = { diagnostics = {}, actions = {}, after = {} }

local function finish()
  local file = io.open(os.getenv("RESULT"), "w")
  file:write(vim.fn.json_encode(result))
  file:close()
  vim.cmd("qall!")
end

local ok, failure = pcall(function()
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("LESSON")))
  local buffer = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({
    name = "coursebook",
    cmd = { os.getenv("COURSEBOOK"), "lsp" },
    root_dir = vim.fn.fnamemodify(os.getenv("LESSON"), ":p:h"),
  })
  vim.lsp.buf_attach_client(buffer, client_id)

  local function seen(list)
    local found = {}
    for _, diagnostic in ipairs(list) do
      local lsp = diagnostic.user_data and diagnostic.user_data.lsp or {}
      table.insert(found, { code = diagnostic.code or lsp.code, line = diagnostic.lnum, col = diagnostic.col,
                            end_line = diagnostic.end_lnum, end_col = diagnostic.end_col, message = diagnostic.message })
    end
    return found
  end

  vim.wait(120000, function() return #vim.diagnostic.get(buffer) > 0 end, 50)
  local diagnostics = vim.diagnostic.get(buffer)
  result.diagnostics = seen(diagnostics)
  if #diagnostics == 0 then return end

  local first = diagnostics[1]
  vim.api.nvim_win_set_cursor(0, { first.lnum + 1, first.col })
  local params = vim.lsp.util.make_range_params()
  params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buffer) }
  local responses = vim.lsp.buf_request_sync(buffer, "textDocument/codeAction", params, 60000) or {}
  local client = vim.lsp.get_client_by_id(client_id)
  for _, response in pairs(responses) do
    for _, action in ipairs(response.result or {}) do
      table.insert(result.actions, action.title)
      if #result.actions == 1 and action.edit then
        vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
      end
    end
  end
  result.text = table.concat(vim.api.nvim_buf_get_lines(buffer, 0, -1, false), "\n") .. "\n"

  -- The edit changed the buffer: Neovim sends it, the server checks it, and its findings come.
  vim.wait(120000, function()
    local now = vim.diagnostic.get(buffer)
    return #now < #diagnostics
  end, 50)
  result.after = seen(vim.diagnostic.get(buffer))
  vim.lsp.stop_client(client_id)
  vim.wait(5000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
end)
if not ok then result.error = tostring(failure) end
finish()
