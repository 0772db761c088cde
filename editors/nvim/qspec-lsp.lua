-- Neovim (0.8 or newer): qspec-lsp for *.qspec buffers. Put the editors/vim folder on
-- 'runtimepath' for the filetype, syntax and ftplugin (docs/editors.md), then load this file
-- from init.lua (`dofile('/path/to/qspec/editors/nvim/qspec-lsp.lua')`) or copy it there.
-- Set vim.g.qspec_lsp_cmd to override the command, e.g.
--   vim.g.qspec_lsp_cmd = { '/path/to/build/bin/qspec-lsp', '--inventory', 'model.safetensors.index.json' }
vim.api.nvim_create_autocmd('FileType', {
  pattern = 'qspec',
  callback = function(args)
    local root = vim.fs.dirname(vim.fs.find({ '.git', '.qlint.yaml' }, { upward = true, path = vim.api.nvim_buf_get_name(args.buf) })[1])
    vim.lsp.start({
      name = 'qspec-lsp',
      cmd = vim.g.qspec_lsp_cmd or { 'qspec-lsp' },
      root_dir = root or vim.fn.getcwd(),
    })
  end,
})
