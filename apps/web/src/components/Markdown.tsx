import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import './media.css';

/**
 * Record descriptions are markdown written by editors: rendered without raw HTML (react-markdown escapes it), then
 * sanitised (rehype-sanitize: no scripts, no event handlers, no style), and unsafe URLs (javascript:, data:) are
 * dropped by react-markdown's URL transform. Links leave the site in a new tab without access to this page.
 */
const components: Components = {
  a: ({ node: _node, children, ...props }) => (
    <a {...props} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  ),
  img: ({ node: _node, alt, ...props }) => <img {...props} alt={alt ?? ''} loading="lazy" />,
};

export function Markdown({ children, className }: { children: string; className?: string }) {
  return (
    <div className={className ?? 'markdown'}>
      <ReactMarkdown rehypePlugins={[rehypeSanitize]} components={components}>
        {children}
      </ReactMarkdown>
    </div>
  );
}
