/**
 * Domains the identity rules never give a board to (identity.ts). They host many products of many makers (big
 * platforms, app stores, code hosts): a product listed there says nothing about which board is the company's.
 */
export const PLATFORM_DOMAINS = new Set(
  (
    'amazon.com apple.com microsoft.com azure.com google.com youtube.com github.com gitlab.com medium.com substack.com ' +
    'twitter.com x.com linkedin.com facebook.com meta.com instagram.com discord.com discord.gg reddit.com ' +
    'producthunt.com wikipedia.org arxiv.org npmjs.com pypi.org notion.site chatgpt.com bit.ly goo.gl ' +
    'apps.apple.com play.google.com chrome.google.com kaggle.com colab.research.google.com ibm.com oracle.com ' +
    'nvidia.com intel.com salesforce.com adobe.com samsung.com baidu.com alibaba.com tencent.com bing.com ' +
    'github.blog fandom.com patreon.com'
  )
    .split(' ')
    .filter(Boolean),
);
