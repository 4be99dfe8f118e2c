import { describe, expect, it } from 'vitest';
import {
  aiSdkProviders,
  modelsDevProviders,
  pipecatServices,
  topLevelStrings,
} from '../../scripts/registry/providers.js';

/** The readers of the two catalogs of AI model providers, on small documents in their formats. */

const names = (facts: { companies: { name: string; domain: string }[] }) =>
  facts.companies.map((c) => `${c.name} ${c.domain}`);

describe('catalogs of AI model providers', () => {
  it('reads the top-level strings of a TOML document, not those of its tables', () => {
    const toml =
      'name = "Acme AI"\n# a note\ndoc = "https://docs.acme.ai" # inline\n[extra]\nname = "Other"\n';
    expect(Object.fromEntries(topLevelStrings(toml))).toEqual({
      name: 'Acme AI',
      doc: 'https://docs.acme.ai',
    });
  });

  it('takes a models.dev provider whose API and docs share the domain its name spells', () => {
    const provider = (name: string, doc: string, api?: string) =>
      `name = "${name}"\ndoc = "${doc}"\n${api ? `api = "${api}"\n` : ''}`;
    const files = new Map([
      [
        'providers/baseten/provider.toml',
        provider('Baseten', 'https://docs.baseten.co/x', 'https://inference.baseten.co/v1'),
      ],
      [
        'providers/inception/provider.toml',
        provider('Inception', 'https://platform.inceptionlabs.ai', 'https://api.inceptionlabs.ai/v1'),
      ],
      // a cloud reselling models under a product name, an API on another domain, no API of its own
      [
        'providers/cf/provider.toml',
        provider(
          'Cloudflare Workers AI',
          'https://developers.cloudflare.com/w',
          'https://api.cloudflare.com/v4',
        ),
      ],
      [
        'providers/vultr/provider.toml',
        provider('Vultr', 'https://api.vultrinference.com/', 'https://api.vultrinference.com/v1'),
      ],
      [
        'providers/scw/provider.toml',
        provider('Scaleway', 'https://www.scaleway.com/en/docs/', 'https://api.scaleway.ai/v1'),
      ],
      [
        'providers/db/provider.toml',
        provider('Databricks', 'https://docs.databricks.com/x', `https://$${''}{DATABRICKS_HOST}/v1`),
      ],
      ['providers/openai/provider.toml', provider('OpenAI', 'https://platform.openai.com/docs/models')],
      [
        'providers/baseten/models/x.toml',
        provider('Baseten', 'https://docs.baseten.co/x', 'https://inference.baseten.co/v1'),
      ],
    ]);
    expect(names(modelsDevProviders('m')(files))).toEqual([
      'Baseten baseten.co',
      'Inception inceptionlabs.ai',
    ]);
  });

  it("takes an AI SDK provider page's first link under the page's title when it is a home page the title spells", () => {
    const page = (title: string, body: string) =>
      `---\ntitle: ${title}\ndescription: x\n---\n\n# ${title}\n\n${body}\n`;
    const files = new Map([
      [
        'p/01-fal.mdx',
        page('Fal', 'The [Fal AI](https://fal.ai/) provider. See [docs](https://docs.fal.ai).'),
      ],
      [
        'p/02-mem0.mdx',
        page("'Mem0'", 'The [Mem0 Provider](https://github.com/mem0ai/mem0) by [**Mem0**](https://mem0.ai).'),
      ],
      ['p/03-google.mdx', page('Google', 'The [Google](https://ai.google.dev) provider.')],
      [
        'p/04-neon.mdx',
        page('Neon AI Gateway', 'The [Neon AI Gateway](https://neon.com/docs/ai-gateway) provider.'),
      ],
      [
        'p/05-sambanova.mdx',
        page('SambaNova', 'The [sambanova-ai-provider](https://github.com/sambanova/x) package.'),
      ],
      ['p/06-luma.mdx', page('Luma', 'The [Luma AI](https://lumalabs.ai/) provider.')],
    ]);
    expect(names(aiSdkProviders('v')(files))).toEqual(['Fal fal.ai', 'Mem0 mem0.ai', 'Luma lumalabs.ai']);
  });

  it("takes a Pipecat service page's first link to a domain its sidebar name spells", () => {
    const page = (name: string, body: string) =>
      `---\ntitle: "${name} Text-to-Speech"\nsidebarTitle: "${name}"\n---\n\n${body}\n`;
    const files = new Map([
      [
        's/tts/rime.mdx',
        page(
          'Rime',
          'See the [reference](https://reference-server.pipecat.ai/x) and [Rime AI](https://docs.rime.ai/).',
        ),
      ],
      ['s/tts/resemble.mdx', page('Resemble AI', 'Sign up at [Resemble AI](https://app.resemble.ai).')],
      ['s/tts/fish.mdx', page('Fish Audio', 'Keys at [Fish Audio Console](https://fish.audio/auth/).')],
      [
        's/tts/kokoro.mdx',
        page('Kokoro', 'Uses [kokoro-onnx](https://github.com/thewh1teagle/kokoro-onnx).'),
      ],
    ]);
    expect(names(pipecatServices('p')(files))).toEqual(['Rime rime.ai', 'Resemble AI resemble.ai']);
  });
});
