import { expect, test } from '@playwright/test'

test('home page renders with the site title', async ({ page }) => {
  await page.goto('/')
  await expect(page).toHaveTitle(/Ferry/)
  await expect(page.locator('html')).toHaveAttribute('lang', 'en')
})

for (const width of [360, 1280]) {
  test(`home page at ${width} px: the update-flow diagram is named, fits the screen and follows the colour mode`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 })
    await page.goto('/')
    const diagram = page.getByRole('img', { name: 'How updates flow through Ferry' })
    await expect(diagram).toBeVisible()
    const box = await diagram.boundingBox()
    expect(box, 'the diagram has a size before it paints').not.toBeNull()
    expect(box!.x).toBeGreaterThanOrEqual(0)
    expect(box!.x + box!.width).toBeLessThanOrEqual(width)
    // Wide enough that its smallest text stays readable (11.5 px at 360 px of drawing).
    expect(box!.width).toBeGreaterThanOrEqual(Math.min(320, width - 32))
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
    await expect(diagram.getByText('electron-updater', { exact: true })).toBeVisible()

    const fill = () =>
      diagram
        .locator('rect')
        .first()
        .evaluate((rect) => getComputedStyle(rect).fill)
    const light = await fill()
    await page.evaluate(() => {
      document.documentElement.classList.remove('light')
      document.documentElement.classList.add('dark')
    })
    await expect.poll(fill).not.toBe(light)
  })
}
